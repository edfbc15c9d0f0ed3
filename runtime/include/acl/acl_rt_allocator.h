// SPDX-License-Identifier: Apache-2.0
// npusim public header: user allocators attached to a stream.
// A descriptor bundles an allocator object with four callbacks; registering it on a stream lets
// libraries built on the runtime fetch it back with aclrtAllocatorGetByStream. The runtime only
// stores the callbacks; it never calls them itself.
#ifndef NPUSIM_ACL_ACL_RT_ALLOCATOR_H
#define NPUSIM_ACL_ACL_RT_ALLOCATOR_H

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

// Returns a block handle for `size` bytes.
typedef void* (*aclrtAllocatorAllocFunc)(aclrtAllocator allocator, size_t size);
// Releases a block returned by the alloc or advise callback.
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator, aclrtAllocatorBlock block);
// Like alloc, with a preferred address hint.
typedef void* (*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator, size_t size,
                                               aclrtAllocatorAddr addr);
// Maps a block handle to its memory address.
typedef void* (*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);

ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);
ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc,
                                                        aclrtAllocator allocator);
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                              aclrtAllocatorAllocFunc func);
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                             aclrtAllocatorFreeFunc func);
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func);
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorGetAddrFromBlockFunc func);

// Binds the descriptor's contents to `stream` (NULL = default stream of the current context).
ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream,
                                                    aclrtAllocatorDesc allocatorDesc);
// Reads back what was registered on `stream`.
ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(
    aclrtStream stream, aclrtAllocatorDesc* allocatorDesc, aclrtAllocator* allocator,
    aclrtAllocatorAllocFunc* allocFunc, aclrtAllocatorFreeFunc* freeFunc,
    aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
    aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc);
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // NPUSIM_ACL_ACL_RT_ALLOCATOR_H
