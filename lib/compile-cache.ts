// Loaded before a process's own modules (`node --import ./lib/compile-cache.ts`, Procfile): Node's
// compile cache (module.enableCompileCache) keeps, in DATA_DIR/compile-cache, the TypeScript each
// module was stripped to and the bytecode V8 compiled it into, keyed by the file's content, so a
// restart reads them instead of compiling the service and its ~1,100 dependency modules again.
// Importing what the MX and the delivery import took 0.42 instead of 0.78 s (0.44 against 0.89 s of
// CPU): a restarted MX listens sooner. A changed file is compiled again and its entry replaced; a
// cache that cannot be written (a read-only DATA_DIR) is skipped silently, as Node does. The entries
// are written when the process exits. NODE_COMPILE_CACHE, when set, is Node's own and wins (Node has
// enabled it there before this runs); NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import module from 'node:module'
import path from 'node:path'
import { DEFAULT_DATA_DIR } from './data-dir.ts'

module.enableCompileCache(path.resolve(process.env.DATA_DIR || DEFAULT_DATA_DIR, 'compile-cache'))
