/** The rules core: pure TypeScript, no I/O, runs in Node and in a browser. */
export * from './squares';
export * from './bitboard';
export * from './pieces';
export * from './editions';
export * from './laser';
export * from './zobrist';
export * from './move';
export * from './position';
export * from './kfen';
export * from './notation';
export * from './setups';
export * from './perft';
export * from './game-status';
export * from './result';
export * from './symmetry';
export * from './record';
export * from './threats';
