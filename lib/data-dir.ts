/** DATA_DIR when it is unset (README, Configuration): relative to the directory a process starts in, the repository's root. */
export const DEFAULT_DATA_DIR = '.data'
