// SPDX-License-Identifier: Apache-2.0
// C skin: user allocator descriptors attached to streams (pure bookkeeping: the runtime stores the
// callbacks for libraries to fetch back; it never calls them).
#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only

namespace {

AllocatorDesc& live_desc(Call& c, aclrtAllocatorDesc desc) {
  require_not_null(desc, "allocatorDesc");
  AllocatorDesc* d = c.runtime().allocator_descs().find(desc);
  require(d != nullptr, ACL_ERROR_INVALID_PARAM, "allocatorDesc is not a live descriptor");
  return *d;
}

template <class F>
aclError set_field(const char* name, aclrtAllocatorDesc desc, void* value, F&& assign) {
  return api_any(name, [&](Call& c) {
    AllocatorDesc& d = live_desc(c, desc);
    require_not_null(value, "the value");
    assign(d, value);
  });
}

template <class T>
void put(T* out, void* value) {
  if (out != nullptr) *out = reinterpret_cast<T>(value);
}

}  // namespace

extern "C" {

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void) {
  return api_value<aclrtAllocatorDesc>(
      "aclrtAllocatorCreateDesc", Needs::kNothing, nullptr, [&](Call& c) {
        return c.runtime().allocator_descs().add(std::make_shared<AllocatorDesc>());
      });
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
  return api_any("aclrtAllocatorDestroyDesc", [&](Call& c) {
    live_desc(c, allocatorDesc);
    c.runtime().allocator_descs().remove(allocatorDesc);
  });
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
  return set_field("aclrtAllocatorSetObjToDesc", allocatorDesc, allocator,
                   [](AllocatorDesc& d, void* v) { d.object = v; });
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                          aclrtAllocatorAllocFunc func) {
  return set_field("aclrtAllocatorSetAllocFuncToDesc", allocatorDesc, reinterpret_cast<void*>(func),
                   [](AllocatorDesc& d, void* v) { d.alloc = v; });
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                         aclrtAllocatorFreeFunc func) {
  return set_field("aclrtAllocatorSetFreeFuncToDesc", allocatorDesc, reinterpret_cast<void*>(func),
                   [](AllocatorDesc& d, void* v) { d.free = v; });
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                aclrtAllocatorAllocAdviseFunc func) {
  return set_field("aclrtAllocatorSetAllocAdviseFuncToDesc", allocatorDesc,
                   reinterpret_cast<void*>(func),
                   [](AllocatorDesc& d, void* v) { d.alloc_advise = v; });
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
  return set_field("aclrtAllocatorSetGetAddrFromBlockFuncToDesc", allocatorDesc,
                   reinterpret_cast<void*>(func),
                   [](AllocatorDesc& d, void* v) { d.get_addr = v; });
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
  return api("aclrtAllocatorRegister", [&](Call& c) {
    const AllocatorDesc& d = live_desc(c, allocatorDesc);
    require(d.object != nullptr && d.alloc != nullptr && d.free != nullptr && d.get_addr != nullptr,
            ACL_ERROR_INVALID_PARAM,
            "the descriptor needs an allocator object and alloc, free and getAddr callbacks");
    Stream& s = c.stream(stream);
    s.allocator = d;
    s.allocator_handle = allocatorDesc;
    s.has_allocator = true;
  });
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc* allocatorDesc,
                                   aclrtAllocator* allocator, aclrtAllocatorAllocFunc* allocFunc,
                                   aclrtAllocatorFreeFunc* freeFunc,
                                   aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc) {
  return api("aclrtAllocatorGetByStream", [&](Call& c) {
    const Stream& s = c.stream(stream);
    require(s.has_allocator, ACL_ERROR_INVALID_PARAM, "no allocator is registered on the stream");
    put(allocatorDesc, s.allocator_handle);
    put(allocator, s.allocator.object);
    put(allocFunc, s.allocator.alloc);
    put(freeFunc, s.allocator.free);
    put(allocAdviseFunc, s.allocator.alloc_advise);
    put(getAddrFromBlockFunc, s.allocator.get_addr);
  });
}

aclError aclrtAllocatorUnregister(aclrtStream stream) {
  return api("aclrtAllocatorUnregister", [&](Call& c) {
    Stream& s = c.stream(stream);
    require(s.has_allocator, ACL_ERROR_INVALID_PARAM, "no allocator is registered on the stream");
    s.has_allocator = false;
    s.allocator = {};
    s.allocator_handle = nullptr;
  });
}

}  // extern "C"
