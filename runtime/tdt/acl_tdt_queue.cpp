// SPDX-License-Identifier: Apache-2.0
// C skin: shared queues and queue routes (acl/acl_tdt_queue.h). Semantics: runtime/tdt/tdt.h.
// Attributes, routes, route lists and query descriptions are host objects (no aclInit needed);
// queues need aclInit (and a current device). The mbuf functions are left to
// acl_unsupported.cpp: Atlas A2/A3 do not support them.
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/tdt/tdt.h"

using namespace npusim::rt;  // NOLINT(google-build-using-namespace): the C skin only
using npusim::rt::tdt::Route;
using npusim::rt::tdt::Tdt;

struct tagMemQueueAttr {
  std::string name;
  std::uint32_t depth = tdt::kDefaultQueueDepth;
};

struct acltdtQueueRoute {
  Route route;
};

struct acltdtQueueRouteList {
  std::vector<Route> routes;
};

struct acltdtQueueRouteQueryInfo {
  tdt::RouteQuery query;
};

namespace {

constexpr std::uint32_t kAllPermissions = ACL_TDT_QUEUE_PERMISSION_MANAGE |
                                          ACL_TDT_QUEUE_PERMISSION_DEQUEUE |
                                          ACL_TDT_QUEUE_PERMISSION_ENQUEUE;

acltdtQueueAttr* live_attr(const acltdtQueueAttr* a) {
  return require_live(Tdt::instance().attrs, a, "attr", "queue attribute");
}
acltdtQueueRoute* live_route(const acltdtQueueRoute* r) {
  return require_live(Tdt::instance().routes, r, "route", "queue route");
}
acltdtQueueRouteList* live_list(const acltdtQueueRouteList* l) {
  return require_live(Tdt::instance().route_lists, l, "qRouteList", "queue route list");
}
acltdtQueueRouteQueryInfo* live_query(const acltdtQueueRouteQueryInfo* q) {
  return require_live(Tdt::instance().query_infos, q, "queryInfo", "queue route query info");
}

// len must be the value's size; `what` names the parameter type.
void require_len(size_t len, size_t want, const std::string& what) {
  require(len == want, ACL_ERROR_INVALID_PARAM,
          "len " + std::to_string(len) + " does not match " + what + " (" + std::to_string(want) +
              " bytes)");
}

// A getter's output: the value's size in *realSize, the value in param (len at least its size).
void put(const void* value, size_t size, size_t len, size_t* real_size, void* param) {
  require_not_null(param, "param");
  require(len >= size, ACL_ERROR_INVALID_PARAM,
          "len " + std::to_string(len) + " is smaller than the value (" + std::to_string(size) +
              " bytes)");
  std::memcpy(param, value, size);
  if (real_size != nullptr) *real_size = size;
}

}  // namespace

extern "C" {

aclError acltdtCreateQueue(const acltdtQueueAttr* attr, uint32_t* qid) {
  return api("acltdtCreateQueue", [&](Call& c) {
    require_not_null(qid, "qid");
    tdt::QueueSpec spec;
    if (attr != nullptr) {
      const acltdtQueueAttr* a = live_attr(attr);
      spec.name = a->name;
      spec.depth = a->depth;
    }
    *qid = tdt::create_queue(c, spec);
  });
}

aclError acltdtDestroyQueue(uint32_t qid) {
  return api("acltdtDestroyQueue", [&](Call& c) { tdt::destroy_queue(c, qid); });
}

aclError acltdtEnqueueData(uint32_t qid, const void* data, size_t dataSize, const void* userData,
                           size_t userDataSize, int32_t timeout, uint32_t rsv) {
  return api("acltdtEnqueueData", [&](Call& c) {
    require(rsv == 0, ACL_ERROR_INVALID_PARAM, "rsv must be 0");
    tdt::enqueue(c, qid, data, dataSize, userData, userDataSize, timeout);
  });
}

aclError acltdtDequeueData(uint32_t qid, void* data, size_t dataSize, size_t* retDataSize,
                           void* userData, size_t userDataSize, int32_t timeout) {
  return api("acltdtDequeueData", [&](Call& c) {
    tdt::dequeue(c, qid, data, dataSize, retDataSize, userData, userDataSize, timeout);
  });
}

aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission, int32_t timeout) {
  return api("acltdtGrantQueue", [&](Call&) {
    Tdt& t = Tdt::instance();
    t.queue(qid);
    require(pid > 0, ACL_ERROR_INVALID_PARAM, "pid must be > 0");
    require(permission != 0 && (permission & ~kAllPermissions) == 0, ACL_ERROR_INVALID_PARAM,
            "permission must be a non-empty set of ACL_TDT_QUEUE_PERMISSION_* bits");
    require(timeout >= -1, ACL_ERROR_INVALID_PARAM, "timeout must be -1, 0 or > 0");
    t.grants[{qid, pid}] |= permission;
  });
}

aclError acltdtAttachQueue(uint32_t qid, int32_t timeout, uint32_t* permission) {
  return api("acltdtAttachQueue", [&](Call&) {
    Tdt::instance().queue(qid);
    require(timeout >= -1, ACL_ERROR_INVALID_PARAM, "timeout must be -1, 0 or > 0");
    require_not_null(permission, "permission");
    *permission = kAllPermissions;  // the queue was created by this (the only) process
  });
}

aclError acltdtBindQueueRoutes(acltdtQueueRouteList* qRouteList) {
  return api("acltdtBindQueueRoutes",
             [&](Call& c) { tdt::bind_routes(c, live_list(qRouteList)->routes); });
}

aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList* qRouteList) {
  return api("acltdtUnbindQueueRoutes",
             [&](Call& c) { tdt::unbind_routes(c, live_list(qRouteList)->routes); });
}

aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo* queryInfo,
                                acltdtQueueRouteList* qRouteList) {
  return api("acltdtQueryQueueRoutes", [&](Call& c) {
    const acltdtQueueRouteQueryInfo* q = live_query(queryInfo);
    acltdtQueueRouteList* list = live_list(qRouteList);
    list->routes = tdt::query_routes(c, q->query);
  });
}

acltdtQueueAttr* acltdtCreateQueueAttr(void) {
  return api_value<acltdtQueueAttr*>("acltdtCreateQueueAttr", Needs::kNothing, nullptr, [&](Call&) {
    auto* a = new acltdtQueueAttr;
    Tdt::instance().attrs.insert(a);
    return a;
  });
}

aclError acltdtDestroyQueueAttr(const acltdtQueueAttr* attr) {
  return api_any("acltdtDestroyQueueAttr", [&](Call&) {
    acltdtQueueAttr* a = live_attr(attr);
    Tdt::instance().attrs.erase(a);
    delete a;
  });
}

aclError acltdtSetQueueAttr(acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                            const void* param) {
  return api_any("acltdtSetQueueAttr", [&](Call&) {
    acltdtQueueAttr* a = live_attr(attr);
    require_not_null(param, "param");
    switch (as_int(type)) {
      case ACL_TDT_QUEUE_NAME_PTR: {
        require_len(len, sizeof(const char*), "ACL_TDT_QUEUE_NAME_PTR (a pointer)");
        const char* name = nullptr;
        std::memcpy(&name, param, sizeof name);
        require_not_null(name, "the queue name");
        const size_t n = strnlen(name, tdt::kMaxNameLength + 1);
        require(n > 0 && n <= tdt::kMaxNameLength, ACL_ERROR_INVALID_PARAM,
                "the queue name must have 1 to " + std::to_string(tdt::kMaxNameLength) +
                    " characters");
        a->name.assign(name, n);
        return;
      }
      case ACL_TDT_QUEUE_DEPTH_UINT32: {
        require_len(len, sizeof(std::uint32_t), "ACL_TDT_QUEUE_DEPTH_UINT32");
        std::uint32_t depth = 0;
        std::memcpy(&depth, param, sizeof depth);
        require(depth >= 1 && depth <= tdt::kMaxQueueDepth, ACL_ERROR_INVALID_PARAM,
                "queue depth " + std::to_string(depth) + " is outside [1, " +
                    std::to_string(tdt::kMaxQueueDepth) + "]");
        a->depth = depth;
        return;
      }
      default:
        fail(ACL_ERROR_INVALID_PARAM, "type is not a queue attribute type");
    }
  });
}

aclError acltdtGetQueueAttr(const acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                            size_t* paramRealSize, void* param) {
  return api_any("acltdtGetQueueAttr", [&](Call&) {
    const acltdtQueueAttr* a = live_attr(attr);
    switch (as_int(type)) {
      case ACL_TDT_QUEUE_NAME_PTR: {
        const char* name = a->name.empty() ? nullptr : a->name.c_str();
        put(&name, sizeof name, len, paramRealSize, param);
        return;
      }
      case ACL_TDT_QUEUE_DEPTH_UINT32:
        put(&a->depth, sizeof a->depth, len, paramRealSize, param);
        return;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "type is not a queue attribute type");
    }
  });
}

acltdtQueueRoute* acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId) {
  return api_value<acltdtQueueRoute*>("acltdtCreateQueueRoute", Needs::kNothing, nullptr,
                                      [&](Call&) {
                                        auto* r = new acltdtQueueRoute{Route{srcId, dstId}};
                                        Tdt::instance().routes.insert(r);
                                        return r;
                                      });
}

aclError acltdtDestroyQueueRoute(const acltdtQueueRoute* route) {
  return api_any("acltdtDestroyQueueRoute", [&](Call&) {
    acltdtQueueRoute* r = live_route(route);
    Tdt::instance().routes.erase(r);
    delete r;
  });
}

aclError acltdtGetQueueRouteParam(const acltdtQueueRoute* route, acltdtQueueRouteParamType type,
                                  size_t len, size_t* paramRealSize, void* param) {
  return api_any("acltdtGetQueueRouteParam", [&](Call&) {
    const Route& r = live_route(route)->route;
    switch (as_int(type)) {
      case ACL_TDT_QUEUE_ROUTE_SRC_UINT32:
        put(&r.src, sizeof r.src, len, paramRealSize, param);
        return;
      case ACL_TDT_QUEUE_ROUTE_DST_UINT32:
        put(&r.dst, sizeof r.dst, len, paramRealSize, param);
        return;
      case ACL_TDT_QUEUE_ROUTE_STATUS_INT32:
        put(&r.status, sizeof r.status, len, paramRealSize, param);
        return;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "type is not a queue route parameter type");
    }
  });
}

acltdtQueueRouteList* acltdtCreateQueueRouteList(void) {
  return api_value<acltdtQueueRouteList*>("acltdtCreateQueueRouteList", Needs::kNothing, nullptr,
                                          [&](Call&) {
                                            auto* l = new acltdtQueueRouteList;
                                            Tdt::instance().route_lists.insert(l);
                                            return l;
                                          });
}

aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList* routeList) {
  return api_any("acltdtDestroyQueueRouteList", [&](Call&) {
    acltdtQueueRouteList* l = live_list(routeList);
    Tdt::instance().route_lists.erase(l);
    delete l;
  });
}

aclError acltdtAddQueueRoute(acltdtQueueRouteList* routeList, const acltdtQueueRoute* route) {
  return api_any("acltdtAddQueueRoute", [&](Call&) {
    acltdtQueueRouteList* l = live_list(routeList);
    l->routes.push_back(live_route(route)->route);
  });
}

aclError acltdtGetQueueRoute(const acltdtQueueRouteList* routeList, size_t index,
                             acltdtQueueRoute* route) {
  return api_any("acltdtGetQueueRoute", [&](Call&) {
    const acltdtQueueRouteList* l = live_list(routeList);
    acltdtQueueRoute* r = live_route(route);
    require(index < l->routes.size(), ACL_ERROR_INVALID_PARAM,
            "index " + std::to_string(index) + " is past the list's " +
                std::to_string(l->routes.size()) + " routes");
    r->route = l->routes[index];
  });
}

size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList* routeList) {
  return api_value<size_t>("acltdtGetQueueRouteNum", Needs::kNothing, 0,
                           [&](Call&) { return live_list(routeList)->routes.size(); });
}

acltdtQueueRouteQueryInfo* acltdtCreateQueueRouteQueryInfo(void) {
  return api_value<acltdtQueueRouteQueryInfo*>(
      "acltdtCreateQueueRouteQueryInfo", Needs::kNothing, nullptr, [&](Call&) {
        auto* q = new acltdtQueueRouteQueryInfo;
        Tdt::instance().query_infos.insert(q);
        return q;
      });
}

aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo* param) {
  return api_any("acltdtDestroyQueueRouteQueryInfo", [&](Call&) {
    acltdtQueueRouteQueryInfo* q = live_query(param);
    Tdt::instance().query_infos.erase(q);
    delete q;
  });
}

aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo* param,
                                      acltdtQueueRouteQueryInfoParamType type, size_t len,
                                      const void* value) {
  return api_any("acltdtSetQueueRouteQueryInfo", [&](Call&) {
    tdt::RouteQuery& q = live_query(param)->query;
    require_not_null(value, "value");
    switch (as_int(type)) {
      case ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM: {
        require_len(len, sizeof(int), "ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM");
        int mode = 0;
        std::memcpy(&mode, value, sizeof mode);
        require(mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC || mode == ACL_TDT_QUEUE_ROUTE_QUERY_DST ||
                    mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST ||
                    mode == ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL,
                ACL_ERROR_INVALID_PARAM, "mode " + std::to_string(mode) + " is not a query mode");
        q.mode = mode;
        return;
      }
      case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32:
        require_len(len, sizeof(std::uint32_t), "ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32");
        std::memcpy(&q.src, value, sizeof q.src);
        q.has_src = true;
        return;
      case ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32:
        require_len(len, sizeof(std::uint32_t), "ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32");
        std::memcpy(&q.dst, value, sizeof q.dst);
        q.has_dst = true;
        return;
      default:
        fail(ACL_ERROR_INVALID_PARAM, "type is not a route query parameter type");
    }
  });
}

}  // extern "C"
