# khetai (the Ruby gem jkugs/khetai) spoken to in lines, for `thoth match -engine proto=khetai`
# (src/foreign/khetai.ts has the lines): one call of KhetAI.move per request.
#
#   ruby scripts/khetai-bridge.rb
#   > ping                                           < pong
#   > move <player> <depth> <seconds> <80 squares>   < move <start> <end> <rotation>   (or: error <text>)
#   > quit
require 'khetai'

$stdout.sync = true
$stdin.each_line do |line|
  words = line.split
  case words[0]
  when 'ping'
    puts 'pong'
  when 'quit'
    break
  when 'move'
    begin
      board = (words[4] || '').scan(/../)
      start, finish, rotation = KhetAI.move(board, words[1].to_i, words[2].to_i, words[3].to_i)
      puts "move #{start} #{finish} #{rotation}"
    rescue StandardError => e
      puts "error #{e.message.tr("\n", ' ')}"
    end
  end
end
