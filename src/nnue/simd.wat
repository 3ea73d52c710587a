;; The network's hot loops in WebAssembly SIMD (docs/nnue.md, "Inference"); src/nnue/kernels.ts
;; drives them. `npm run build:wasm` compiles this file into src/nnue/simd-wasm.ts.
;;
;; The memory (imported, one per NnueStack) holds, at byte addresses that setup is told:
;;   lists     four lists of features, `stride` bytes apart: adds and subtractions of
;;             perspective 0, adds and subtractions of perspective 1 (i32 feature indices, turned
;;             into row addresses in place by the kernels)
;;   weights   i16[2951 × H], feature f's row of H at weights + f · 2H
;;   bias      i16[H]
;;   out       i16[2H], the side to move's H first
;;   acc       accumulators, perspective 0's H then perspective 1's, slot after slot: i32, or
;;             i16 when setup is told `narrow`
;; H is a multiple of 16 (of 32 when narrow). The arithmetic is exactly network.ts's: i32
;; accumulators (wrapping as an Int32Array does), the forward pass's sum in i64. Narrow i16
;; accumulators wrap modulo 2^16: whatever the order of the additions, an accumulator whose true
;; value lies within int16 comes out exact, and kernels.ts takes them only for a network whose
;; accumulators cannot leave int16 in any position.
(module
  (import "env" "memory" (memory 1))

  (global $H (mut i32) (i32.const 0))
  (global $row (mut i32) (i32.const 0))       ;; bytes of a weight row (2H)
  (global $weights (mut i32) (i32.const 0))
  (global $bias (mut i32) (i32.const 0))
  (global $out (mut i32) (i32.const 0))
  (global $lists (mut i32) (i32.const 0))
  (global $stride (mut i32) (i32.const 0))
  (global $qa (mut i32) (i32.const 0))
  (global $narrow (mut i32) (i32.const 0))    ;; 1: i16 accumulators
  (global $half (mut i32) (i32.const 0))      ;; bytes of one accumulator (2H or 4H)

  (func (export "setup")
    (param $H i32) (param $weights i32) (param $bias i32) (param $out i32)
    (param $lists i32) (param $stride i32) (param $qa i32) (param $narrow i32)
    (global.set $narrow (local.get $narrow))
    (global.set $half (i32.shl (local.get $H) (select (i32.const 1) (i32.const 2) (local.get $narrow))))
    (global.set $H (local.get $H))
    (global.set $row (i32.shl (local.get $H) (i32.const 1)))
    (global.set $weights (local.get $weights))
    (global.set $bias (local.get $bias))
    (global.set $out (local.get $out))
    (global.set $lists (local.get $lists))
    (global.set $stride (local.get $stride))
    (global.set $qa (local.get $qa)))

  ;; The n feature indices at list[0..n) become the byte addresses of their weight rows.
  (func $rows (param $list i32) (param $n i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $list) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $list) (local.get $end)))
        (i32.store (local.get $list)
          (i32.add (global.get $weights) (i32.mul (i32.load (local.get $list)) (global.get $row))))
        (local.set $list (i32.add (local.get $list) (i32.const 4)))
        (br $next))))

  ;; dst[0..H) = src[0..H) + the rows at adds[0..nAdd) − the rows at subs[0..nSub), 16 neurons at
  ;; a time: each tile of the accumulator is loaded once, gets every row, and is stored once.
  (func $apply
    (param $src i32) (param $dst i32) (param $adds i32) (param $nAdd i32) (param $subs i32) (param $nSub i32)
    (local $t i32) (local $tEnd i32) (local $wt i32)
    (local $p i32) (local $end i32) (local $r i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $w v128)
    (local.set $tEnd (i32.shl (global.get $H) (i32.const 2)))
    (block $tilesDone
      (loop $tile
        (br_if $tilesDone (i32.ge_u (local.get $t) (local.get $tEnd)))
        (local.set $a0 (v128.load offset=0 (i32.add (local.get $src) (local.get $t))))
        (local.set $a1 (v128.load offset=16 (i32.add (local.get $src) (local.get $t))))
        (local.set $a2 (v128.load offset=32 (i32.add (local.get $src) (local.get $t))))
        (local.set $a3 (v128.load offset=48 (i32.add (local.get $src) (local.get $t))))
        ;; additions
        (local.set $p (local.get $adds))
        (local.set $end (i32.add (local.get $adds) (i32.shl (local.get $nAdd) (i32.const 2))))
        (block $addsDone
          (loop $add
            (br_if $addsDone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $r (i32.add (i32.load (local.get $p)) (local.get $wt)))
            (local.set $w (v128.load offset=0 (local.get $r)))
            (local.set $a0 (i32x4.add (local.get $a0) (i32x4.extend_low_i16x8_s (local.get $w))))
            (local.set $a1 (i32x4.add (local.get $a1) (i32x4.extend_high_i16x8_s (local.get $w))))
            (local.set $w (v128.load offset=16 (local.get $r)))
            (local.set $a2 (i32x4.add (local.get $a2) (i32x4.extend_low_i16x8_s (local.get $w))))
            (local.set $a3 (i32x4.add (local.get $a3) (i32x4.extend_high_i16x8_s (local.get $w))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $add)))
        ;; subtractions
        (local.set $p (local.get $subs))
        (local.set $end (i32.add (local.get $subs) (i32.shl (local.get $nSub) (i32.const 2))))
        (block $subsDone
          (loop $sub
            (br_if $subsDone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $r (i32.add (i32.load (local.get $p)) (local.get $wt)))
            (local.set $w (v128.load offset=0 (local.get $r)))
            (local.set $a0 (i32x4.sub (local.get $a0) (i32x4.extend_low_i16x8_s (local.get $w))))
            (local.set $a1 (i32x4.sub (local.get $a1) (i32x4.extend_high_i16x8_s (local.get $w))))
            (local.set $w (v128.load offset=16 (local.get $r)))
            (local.set $a2 (i32x4.sub (local.get $a2) (i32x4.extend_low_i16x8_s (local.get $w))))
            (local.set $a3 (i32x4.sub (local.get $a3) (i32x4.extend_high_i16x8_s (local.get $w))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $sub)))
        (v128.store offset=0 (i32.add (local.get $dst) (local.get $t)) (local.get $a0))
        (v128.store offset=16 (i32.add (local.get $dst) (local.get $t)) (local.get $a1))
        (v128.store offset=32 (i32.add (local.get $dst) (local.get $t)) (local.get $a2))
        (v128.store offset=48 (i32.add (local.get $dst) (local.get $t)) (local.get $a3))
        (local.set $t (i32.add (local.get $t) (i32.const 64)))
        (local.set $wt (i32.add (local.get $wt) (i32.const 32)))
        (br $tile))))

  ;; dst = src + adds − subtractions as $apply does, for i16 accumulators: 32 neurons at a time,
  ;; the rows added without widening.
  (func $apply16
    (param $src i32) (param $dst i32) (param $adds i32) (param $nAdd i32) (param $subs i32) (param $nSub i32)
    (local $t i32) (local $p i32) (local $end i32) (local $r i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (block $tilesDone
      (loop $tile
        (br_if $tilesDone (i32.ge_u (local.get $t) (global.get $row)))
        (local.set $a0 (v128.load offset=0 (i32.add (local.get $src) (local.get $t))))
        (local.set $a1 (v128.load offset=16 (i32.add (local.get $src) (local.get $t))))
        (local.set $a2 (v128.load offset=32 (i32.add (local.get $src) (local.get $t))))
        (local.set $a3 (v128.load offset=48 (i32.add (local.get $src) (local.get $t))))
        (local.set $p (local.get $adds))
        (local.set $end (i32.add (local.get $adds) (i32.shl (local.get $nAdd) (i32.const 2))))
        (block $addsDone
          (loop $add
            (br_if $addsDone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $r (i32.add (i32.load (local.get $p)) (local.get $t)))
            (local.set $a0 (i16x8.add (local.get $a0) (v128.load offset=0 (local.get $r))))
            (local.set $a1 (i16x8.add (local.get $a1) (v128.load offset=16 (local.get $r))))
            (local.set $a2 (i16x8.add (local.get $a2) (v128.load offset=32 (local.get $r))))
            (local.set $a3 (i16x8.add (local.get $a3) (v128.load offset=48 (local.get $r))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $add)))
        (local.set $p (local.get $subs))
        (local.set $end (i32.add (local.get $subs) (i32.shl (local.get $nSub) (i32.const 2))))
        (block $subsDone
          (loop $sub
            (br_if $subsDone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $r (i32.add (i32.load (local.get $p)) (local.get $t)))
            (local.set $a0 (i16x8.sub (local.get $a0) (v128.load offset=0 (local.get $r))))
            (local.set $a1 (i16x8.sub (local.get $a1) (v128.load offset=16 (local.get $r))))
            (local.set $a2 (i16x8.sub (local.get $a2) (v128.load offset=32 (local.get $r))))
            (local.set $a3 (i16x8.sub (local.get $a3) (v128.load offset=48 (local.get $r))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $sub)))
        (v128.store offset=0 (i32.add (local.get $dst) (local.get $t)) (local.get $a0))
        (v128.store offset=16 (i32.add (local.get $dst) (local.get $t)) (local.get $a1))
        (v128.store offset=32 (i32.add (local.get $dst) (local.get $t)) (local.get $a2))
        (v128.store offset=48 (i32.add (local.get $dst) (local.get $t)) (local.get $a3))
        (local.set $t (i32.add (local.get $t) (i32.const 64)))
        (br $tile))))

  ;; One accumulator: dst = src + adds − subtractions, in the accumulators' width.
  (func $applyAny
    (param $src i32) (param $dst i32) (param $adds i32) (param $nAdd i32) (param $subs i32) (param $nSub i32)
    (if (global.get $narrow)
      (then (call $apply16 (local.get $src) (local.get $dst) (local.get $adds) (local.get $nAdd) (local.get $subs) (local.get $nSub)))
      (else (call $apply (local.get $src) (local.get $dst) (local.get $adds) (local.get $nAdd) (local.get $subs) (local.get $nSub)))))

  ;; The accumulator pair at dst = the pair at src plus the four lists (a move's changes).
  (func (export "update")
    (param $src i32) (param $dst i32) (param $nAdd0 i32) (param $nSub0 i32) (param $nAdd1 i32) (param $nSub1 i32)
    (local $l0 i32) (local $l1 i32) (local $l2 i32) (local $l3 i32)
    (local.set $l0 (global.get $lists))
    (local.set $l1 (i32.add (local.get $l0) (global.get $stride)))
    (local.set $l2 (i32.add (local.get $l1) (global.get $stride)))
    (local.set $l3 (i32.add (local.get $l2) (global.get $stride)))
    (call $rows (local.get $l0) (local.get $nAdd0))
    (call $rows (local.get $l1) (local.get $nSub0))
    (call $rows (local.get $l2) (local.get $nAdd1))
    (call $rows (local.get $l3) (local.get $nSub1))
    (call $applyAny (local.get $src) (local.get $dst) (local.get $l0) (local.get $nAdd0) (local.get $l1) (local.get $nSub0))
    (call $applyAny
      (i32.add (local.get $src) (global.get $half)) (i32.add (local.get $dst) (global.get $half))
      (local.get $l2) (local.get $nAdd1) (local.get $l3) (local.get $nSub1)))

  ;; acc[0..H) = the hidden biases, widened to i32 unless narrow.
  (func $bias (param $acc i32)
    (local $k i32) (local $w v128)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (global.get $row)))
        (local.set $w (v128.load (i32.add (global.get $bias) (local.get $k))))
        (if (global.get $narrow)
          (then (v128.store (i32.add (local.get $acc) (local.get $k)) (local.get $w)))
          (else
            (v128.store offset=0 (i32.add (local.get $acc) (i32.shl (local.get $k) (i32.const 1)))
              (i32x4.extend_low_i16x8_s (local.get $w)))
            (v128.store offset=16 (i32.add (local.get $acc) (i32.shl (local.get $k) (i32.const 1)))
              (i32x4.extend_high_i16x8_s (local.get $w)))))
        (local.set $k (i32.add (local.get $k) (i32.const 16)))
        (br $next))))

  ;; The accumulator pair at dst from scratch: the biases plus the rows of the first list
  ;; (perspective 0's n0 features) and of the third (perspective 1's n1).
  (func (export "refresh") (param $dst i32) (param $n0 i32) (param $n1 i32)
    (local $l0 i32) (local $l2 i32) (local $dst1 i32)
    (local.set $l0 (global.get $lists))
    (local.set $l2 (i32.add (local.get $l0) (i32.shl (global.get $stride) (i32.const 1))))
    (local.set $dst1 (i32.add (local.get $dst) (global.get $half)))
    (call $rows (local.get $l0) (local.get $n0))
    (call $rows (local.get $l2) (local.get $n1))
    (call $bias (local.get $dst))
    (call $bias (local.get $dst1))
    (call $applyAny (local.get $dst) (local.get $dst) (local.get $l0) (local.get $n0) (local.get $l0) (i32.const 0))
    (call $applyAny (local.get $dst1) (local.get $dst1) (local.get $l2) (local.get $n1) (local.get $l2) (i32.const 0)))

  ;; Σ_j clamp(acc[j], 0, QA)² · w[j] over one accumulator of H and its H output weights, added to
  ;; the two i64 lanes of sum. The square is at most 1023² and fits i32; its product with the
  ;; weight is taken in i64 (extmul), so nothing can overflow.
  (func $half (param $acc i32) (param $w i32) (param $sum v128) (result v128)
    (local $k i32) (local $x v128) (local $wv v128) (local $wh v128) (local $zero v128) (local $qa v128)
    (local.set $zero (v128.const i32x4 0 0 0 0))
    (local.set $qa (i32x4.splat (global.get $qa)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (global.get $row)))
        (local.set $wv (v128.load (i32.add (local.get $w) (local.get $k))))
        (local.set $wh (i32x4.extend_high_i16x8_s (local.get $wv)))
        (local.set $wv (i32x4.extend_low_i16x8_s (local.get $wv)))
        (local.set $x (v128.load offset=0 (i32.add (local.get $acc) (i32.shl (local.get $k) (i32.const 1)))))
        (local.set $x (i32x4.min_s (i32x4.max_s (local.get $x) (local.get $zero)) (local.get $qa)))
        (local.set $x (i32x4.mul (local.get $x) (local.get $x)))
        (local.set $sum (i64x2.add (local.get $sum) (i64x2.extmul_low_i32x4_s (local.get $x) (local.get $wv))))
        (local.set $sum (i64x2.add (local.get $sum) (i64x2.extmul_high_i32x4_s (local.get $x) (local.get $wv))))
        (local.set $x (v128.load offset=16 (i32.add (local.get $acc) (i32.shl (local.get $k) (i32.const 1)))))
        (local.set $x (i32x4.min_s (i32x4.max_s (local.get $x) (local.get $zero)) (local.get $qa)))
        (local.set $x (i32x4.mul (local.get $x) (local.get $x)))
        (local.set $sum (i64x2.add (local.get $sum) (i64x2.extmul_low_i32x4_s (local.get $x) (local.get $wh))))
        (local.set $sum (i64x2.add (local.get $sum) (i64x2.extmul_high_i32x4_s (local.get $x) (local.get $wh))))
        (local.set $k (i32.add (local.get $k) (i32.const 16)))
        (br $next)))
    (local.get $sum))

  ;; $half for i16 accumulators: clamped in i16 (QA ≤ 1023), squared into i32 (extmul).
  (func $half16 (param $acc i32) (param $w i32) (param $sum v128) (result v128)
    (local $k i32) (local $x v128) (local $sq v128) (local $wv v128) (local $zero v128) (local $qa v128)
    (local.set $zero (v128.const i16x8 0 0 0 0 0 0 0 0))
    (local.set $qa (i16x8.splat (global.get $qa)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (global.get $row)))
        (local.set $wv (v128.load (i32.add (local.get $w) (local.get $k))))
        (local.set $x (v128.load (i32.add (local.get $acc) (local.get $k))))
        (local.set $x (i16x8.min_s (i16x8.max_s (local.get $x) (local.get $zero)) (local.get $qa)))
        (local.set $sq (i32x4.extmul_low_i16x8_s (local.get $x) (local.get $x)))
        (local.set $sum (i64x2.add (local.get $sum)
          (i64x2.extmul_low_i32x4_s (local.get $sq) (i32x4.extend_low_i16x8_s (local.get $wv)))))
        (local.set $sum (i64x2.add (local.get $sum)
          (i64x2.extmul_high_i32x4_s (local.get $sq) (i32x4.extend_low_i16x8_s (local.get $wv)))))
        (local.set $sq (i32x4.extmul_high_i16x8_s (local.get $x) (local.get $x)))
        (local.set $sum (i64x2.add (local.get $sum)
          (i64x2.extmul_low_i32x4_s (local.get $sq) (i32x4.extend_high_i16x8_s (local.get $wv)))))
        (local.set $sum (i64x2.add (local.get $sum)
          (i64x2.extmul_high_i32x4_s (local.get $sq) (i32x4.extend_high_i16x8_s (local.get $wv)))))
        (local.set $k (i32.add (local.get $k) (i32.const 16)))
        (br $next)))
    (local.get $sum))

  ;; The forward pass's sum before the division by QA (network.ts's `forward`), from the side to
  ;; move's accumulator at stm and the other's at nstm; below 2^53 in magnitude, so exact in f64.
  (func (export "forward") (param $stm i32) (param $nstm i32) (result f64)
    (local $sum v128) (local $out1 i32)
    (local.set $out1 (i32.add (global.get $out) (global.get $row)))
    (if (global.get $narrow)
      (then
        (local.set $sum (call $half16 (local.get $stm) (global.get $out) (v128.const i64x2 0 0)))
        (local.set $sum (call $half16 (local.get $nstm) (local.get $out1) (local.get $sum))))
      (else
        (local.set $sum (call $half (local.get $stm) (global.get $out) (v128.const i64x2 0 0)))
        (local.set $sum (call $half (local.get $nstm) (local.get $out1) (local.get $sum)))))
    (f64.convert_i64_s (i64.add (i64x2.extract_lane 0 (local.get $sum)) (i64x2.extract_lane 1 (local.get $sum))))))
