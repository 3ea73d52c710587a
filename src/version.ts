export const VERSION = '0.1.0';
export const AUTHOR = 'the Thoth developers';
