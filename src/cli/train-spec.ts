/** `thoth train`'s flags, each declared once (parser, --help, hints); src/cli/train-command.ts reads them. */
import { DEFAULT_SEED } from '../match/config';
import { DEFAULT_SCALE } from '../nnue/network';
import { LOGISTIC_K } from '../train/train';
import type { CommandSpec } from './args';

export const TRAIN_SPEC: CommandSpec = {
  name: 'train',
  positional: '--out FILE DATA…',
  summary:
    "Trains the network on the positions of datagen's files (DATA…, docs/nnue.md) and writes the quantised network " +
    `file. The loss is the squared error between sigmoid(output · SCALE / ${LOGISTIC_K}) and λ · sigmoid(score / ${LOGISTIC_K}) ` +
    '+ (1 − λ) · result; the optimiser is Adam.',
  options: [
    {
      name: 'out',
      value: 'FILE',
      help: 'the network file to write (not a data file); Ctrl-C writes the best network so far there',
    },
    {
      name: 'init',
      value: 'NET',
      help: "a warm start: begin from this network's weights ('default': the shipped one) instead of random ones; its hidden size and scale are kept",
    },
    { name: 'hidden', value: 'N', help: 'neurons per perspective', default: '128, or that of --init' },
    {
      name: 'epochs',
      value: 'N',
      help: "passes over the training positions (0: none, only the --init network's loss)",
      default: '10',
    },
    { name: 'batch', value: 'N', help: 'positions per optimiser step', default: '4096' },
    { name: 'lr', value: 'X', help: "Adam's learning rate", default: '0.001' },
    {
      name: 'lr-drop',
      value: 'N',
      help: 'multiply the rate by --lr-gamma after every N epochs',
      default: '70 % of --epochs',
    },
    { name: 'lr-gamma', value: 'X', help: 'the factor of --lr-drop', default: '0.1' },
    {
      name: 'lambda',
      value: 'X',
      help: 'weight of the search score against the game result in the target',
      default: '1',
    },
    { name: 'val', value: 'X', help: 'share of the games held out for validation', default: '0.05' },
    {
      name: 'seed',
      value: 'S',
      help: 'seed of the initial weights, the order and the split',
      default: String(DEFAULT_SEED),
    },
    { name: 'scale', value: 'N', help: 'centi-pyramids per unit of output', default: String(DEFAULT_SCALE) },
    { name: 'threads', value: 'N', help: "threads computing each batch's gradient", default: 'the number of cores' },
    {
      name: 'chunk-positions',
      value: 'N',
      help: 'more training positions than this are streamed from the files in shuffled chunks of at most N (memory: about 0.6 kB a position of a chunk; docs/nnue.md)',
      default: '2000000',
    },
    { name: 'quiet', help: 'no progress line (it is shown on a terminal only)' },
  ],
};
