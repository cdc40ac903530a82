#ifndef CPREFETCH_SHIM_H
#define CPREFETCH_SHIM_H
// A hint to the processor to start reading the cache line at an address into its caches: it
// reads nothing for the program and never faults, whatever the address (null included). Swift
// has no spelling for it; a static inline function here is inlined into the Swift caller.
static inline void drawtogether_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
#endif
