// SPDX-License-Identifier: Apache-2.0
// The aclnn meta API (acl_meta.h): creating, querying and destroying tensors, scalars, arrays
// and lists; element conversions. See meta.h.
#include "runtime/aclnn/meta.h"

#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <type_traits>

#include "runtime/aclnn/tensor_bounds.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/half_float.h"
#include "sim/log.h"

namespace npusim::aclnn {
namespace {

std::set<const void*>& live() {
  static auto* objects = new std::set<const void*>;  // under the API lock; never destroyed
  return *objects;
}

float bf16_to_float(std::uint16_t h) {
  const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

std::uint16_t float_to_bf16(float f) {  // round to nearest even; NaN stays NaN
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>(bits >> 16);
}

// An integer result out of its type's range saturates (NaN gives 0): never an undefined cast.
template <class T>
T saturate(long double v) {
  if (!(v == v)) return 0;
  if (v <= static_cast<long double>(std::numeric_limits<T>::min())) {
    return std::numeric_limits<T>::min();
  }
  if (v >= static_cast<long double>(std::numeric_limits<T>::max())) {
    return std::numeric_limits<T>::max();
  }
  return static_cast<T>(v);
}

template <class T>
void put(void* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

template <class T>
T get(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

std::size_t element_size(int dtype) {
  switch (dtype) {
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: return 8;
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    default: return 0;  // not supported
  }
}

std::string dtype_name(int dtype) {
  switch (dtype) {
    case ACL_FLOAT: return "FLOAT";
    case ACL_FLOAT16: return "FLOAT16";
    case ACL_BF16: return "BF16";
    case ACL_DOUBLE: return "DOUBLE";
    case ACL_INT8: return "INT8";
    case ACL_UINT8: return "UINT8";
    case ACL_INT16: return "INT16";
    case ACL_UINT16: return "UINT16";
    case ACL_INT32: return "INT32";
    case ACL_UINT32: return "UINT32";
    case ACL_INT64: return "INT64";
    case ACL_UINT64: return "UINT64";
    case ACL_BOOL: return "BOOL";
    default: return "type " + std::to_string(dtype);
  }
}

long double load(int dtype, const void* base, std::int64_t index) {
  const char* p =
      static_cast<const char*>(base) + index * static_cast<std::int64_t>(element_size(dtype));
  switch (dtype) {
    case ACL_FLOAT: return get<float>(p);
    case ACL_FLOAT16: return rt::half_to_float(get<std::uint16_t>(p));
    case ACL_BF16: return bf16_to_float(get<std::uint16_t>(p));
    case ACL_DOUBLE: return get<double>(p);
    case ACL_INT8: return get<std::int8_t>(p);
    case ACL_UINT8: return get<std::uint8_t>(p);
    case ACL_BOOL: return get<std::uint8_t>(p) != 0 ? 1 : 0;
    case ACL_INT16: return get<std::int16_t>(p);
    case ACL_UINT16: return get<std::uint16_t>(p);
    case ACL_INT32: return get<std::int32_t>(p);
    case ACL_UINT32: return get<std::uint32_t>(p);
    case ACL_UINT64: return static_cast<long double>(get<std::uint64_t>(p));
    default: return static_cast<long double>(get<std::int64_t>(p));
  }
}

void store(int dtype, void* base, std::int64_t index, long double v) {
  char* p = static_cast<char*>(base) + index * static_cast<std::int64_t>(element_size(dtype));
  switch (dtype) {
    case ACL_FLOAT: return put(p, static_cast<float>(v));
    case ACL_FLOAT16: return put(p, rt::float_to_half(static_cast<float>(v)));
    case ACL_BF16: return put(p, float_to_bf16(static_cast<float>(v)));
    case ACL_DOUBLE: return put(p, static_cast<double>(v));
    case ACL_INT8: return put(p, saturate<std::int8_t>(v));
    case ACL_UINT8: return put(p, saturate<std::uint8_t>(v));
    case ACL_BOOL: return put(p, static_cast<std::uint8_t>(v != 0 ? 1 : 0));
    case ACL_INT16: return put(p, saturate<std::int16_t>(v));
    case ACL_UINT16: return put(p, saturate<std::uint16_t>(v));
    case ACL_INT32: return put(p, saturate<std::int32_t>(v));
    case ACL_UINT32: return put(p, saturate<std::uint32_t>(v));
    case ACL_UINT64: return put(p, saturate<std::uint64_t>(v));
    default: return put(p, saturate<std::int64_t>(v));
  }
}

void make_live(const void* object) { live().insert(object); }
bool is_live(const void* object) { return object != nullptr && live().count(object) != 0; }
bool kill(const void* object) { return live().erase(object) != 0; }

}  // namespace npusim::aclnn

bool aclTensor::contiguous() const {
  std::int64_t expect = 1;
  for (std::size_t k = dims.size(); k-- > 0;) {
    if (dims[k] != 1 && strides[k] != expect) return false;
    expect *= dims[k];
  }
  return true;
}

std::uint8_t* aclTensor::addr() const {
  return static_cast<std::uint8_t*>(data) +
         offset * static_cast<std::int64_t>(npusim::aclnn::element_size(dtype));
}

using namespace npusim::rt;
namespace nn = npusim::aclnn;

namespace {

// Fills `t` from aclCreateTensor's / aclInitTensor's arguments.
void describe(aclTensor& t, const int64_t* view_dims, uint64_t view_dims_num, int dtype,
              const int64_t* stride, int64_t offset, int format, const int64_t* storage_dims,
              uint64_t storage_dims_num, void* data) {
  require(view_dims_num == 0 || view_dims != nullptr, ACLNN_ERR_PARAM_NULLPTR,
          "viewDims is NULL");
  require(view_dims_num <= 8, ACLNN_ERR_PARAM_INVALID, "at most 8 dimensions");
  require(nn::element_size(dtype) != 0, ACLNN_ERR_PARAM_INVALID,
          "dataType " + std::to_string(dtype) + " is not supported by npusim's operators");
  require(offset >= 0, ACLNN_ERR_PARAM_INVALID, "offset is negative");
  require(storage_dims_num <= 8 && (storage_dims_num == 0 || storage_dims != nullptr),
          ACLNN_ERR_PARAM_INVALID, "storageDims: NULL or more than 8 dimensions");
  t.dims.assign(view_dims, view_dims + view_dims_num);
  for (std::int64_t d : t.dims) require(d >= 0, ACLNN_ERR_PARAM_INVALID, "a dimension is negative");
  if (stride != nullptr) {
    t.strides.assign(stride, stride + view_dims_num);
    for (std::int64_t s : t.strides) {
      require(s >= 0, ACLNN_ERR_PARAM_INVALID, "a stride is negative");
    }
  } else {  // contiguous
    t.strides = nn::contiguous_strides(t.dims);
  }
  t.offset = offset;
  t.dtype = dtype;
  t.format = format;
  t.storage.assign(storage_dims, storage_dims + storage_dims_num);
  t.data = data;
  nn::check_tensor_shape(t);  // sizes fit int64, the view fits its storage
}

template <class T>
const T& live_object(const T* p, const char* what) {
  require(p != nullptr, ACLNN_ERR_PARAM_NULLPTR, std::string(what) + " is NULL");
  require(nn::is_live(p), ACLNN_ERR_PARAM_INVALID,
          std::string(what) + " is not a live object of the operator library");
  return *p;
}

template <class T>
int destroy(const char* api, const T* p, const char* what) {
  return api_any(api, [&](Call&) {
    live_object(p, what);
    nn::kill(p);
    delete p;
  });
}

template <class T, class V>
T* make_array(const char* api, const V* values, uint64_t size) {
  return api_value<T*>(api, Needs::kNothing, nullptr, [&](Call&) {
    require(size == 0 || values != nullptr, ACLNN_ERR_PARAM_NULLPTR, "value is NULL");
    require(size <= (1u << 24), ACLNN_ERR_PARAM_INVALID, "size is too large");
    auto a = std::make_unique<T>();
    a->values.assign(values, values + size);
    nn::make_live(a.get());
    return a.release();
  });
}

// aclCreateTensorList / aclCreateScalarList: a list taking ownership of `size` live objects.
template <class List, class Item>
List* make_list(const char* api, const Item* const* value, uint64_t size,
                std::vector<Item*> List::*items, const char* what) {
  return api_value<List*>(api, Needs::kNothing, nullptr, [&](Call&) {
    require(size == 0 || value != nullptr, ACLNN_ERR_PARAM_NULLPTR, "value is NULL");
    for (uint64_t i = 0; i < size; ++i) live_object(value[i], what);
    auto l = std::make_unique<List>();
    for (uint64_t i = 0; i < size; ++i) (l.get()->*items).push_back(const_cast<Item*>(value[i]));
    nn::make_live(l.get());
    return l.release();
  });
}

int64_t* copy_out(const std::vector<std::int64_t>& v) {
  auto* out = new int64_t[v.empty() ? 1 : v.size()];
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i];
  return out;
}

// aclGetViewShape / aclGetStorageShape / aclGetViewStrides: a copy of one of the tensor's
// dimension lists (the caller delete[]s it) and its length.
int get_dims(const char* api, const aclTensor* tensor, std::vector<std::int64_t> aclTensor::*list,
             int64_t** values, uint64_t* count) {
  return api_any(api, [&](Call&) {
    const aclTensor& t = live_object(tensor, "tensor");
    require(values != nullptr && count != nullptr, ACLNN_ERR_PARAM_NULLPTR,
            "output pointer is NULL");
    *values = copy_out(t.*list);
    *count = (t.*list).size();
  });
}

// aclGetViewOffset / aclGetFormat / aclGetDataType / aclGetRawTensorAddr: one field of the tensor
// into *out (format and data type are stored as int: copied bytewise into the enum).
template <class Field, class Out>
int get_field(const char* api, const aclTensor* tensor, Field aclTensor::*field, Out* out,
              const char* null_message) {
  static_assert(sizeof(Field) == sizeof(Out), "the field and the output have one size");
  return api_any(api, [&](Call&) {
    const aclTensor& t = live_object(tensor, "tensor");
    require(out != nullptr, ACLNN_ERR_PARAM_NULLPTR, null_message);
    std::memcpy(out, &(t.*field), sizeof *out);
  });
}

}  // namespace

// The operator library needs no initialisation. A configuration file (CANN's takes dump and
// deterministic-computation settings) must exist and be readable; its settings are not applied,
// which is logged.
aclnnStatus aclnnInit(const char* configPath) {
  return api_any("aclnnInit", [&](Call&) {
    if (configPath == nullptr) return;
    std::ifstream file(configPath);
    require(file.good(), ACLNN_ERR_PARAM_INVALID,
            std::string("aclnnInit: cannot read the configuration file ") + configPath);
    npusim::sim::log_warn(std::string("aclnnInit: the settings in ") + configPath +
                          " (dump, deterministic computation) are not applied by npusim");
  });
}

aclnnStatus aclnnFinalize() {
  return api_any("aclnnFinalize", [&](Call&) {});
}

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format,
                           const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
  return api_value<aclTensor*>("aclCreateTensor", Needs::kNothing, nullptr, [&](Call&) {
    auto t = std::make_unique<aclTensor>();
    describe(*t, viewDims, viewDimsNum, as_int(dataType), stride, offset, as_int(format),
             storageDims, storageDimsNum, tensorData);
    nn::make_live(t.get());
    return t.release();
  });
}

aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum,
                          aclDataType dataType, const int64_t* stride, int64_t offset,
                          aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                          void* tensorData) {
  return api_any("aclInitTensor", [&](Call&) {
    live_object(tensor, "tensor");
    aclTensor t;
    describe(t, viewDims, viewDimsNum, as_int(dataType), stride, offset, as_int(format),
             storageDims, storageDimsNum, tensorData);
    *tensor = std::move(t);
  });
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  return api_value<aclScalar*>("aclCreateScalar", Needs::kNothing, nullptr, [&](Call&) {
    require(value != nullptr, ACLNN_ERR_PARAM_NULLPTR, "value is NULL");
    const int dtype = as_int(dataType);
    require(nn::element_size(dtype) != 0, ACLNN_ERR_PARAM_INVALID,
            "dataType " + std::to_string(dtype) + " is not supported by npusim's operators");
    auto s = std::make_unique<aclScalar>();
    s->dtype = dtype;
    s->value = nn::load(dtype, value, 0);
    nn::make_live(s.get());
    return s.release();
  });
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  return make_array<aclIntArray>("aclCreateIntArray", value, size);
}
aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  return make_array<aclFloatArray>("aclCreateFloatArray", value, size);
}
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  return make_array<aclBoolArray>("aclCreateBoolArray", value, size);
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  return make_list<aclTensorList>("aclCreateTensorList", value, size, &aclTensorList::tensors,
                                  "a tensor of the list");
}

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  return make_list<aclScalarList>("aclCreateScalarList", value, size, &aclScalarList::scalars,
                                  "a scalar of the list");
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  return destroy("aclDestroyTensor", tensor, "tensor");
}
aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  return destroy("aclDestroyScalar", scalar, "scalar");
}
aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  return destroy("aclDestroyIntArray", array, "array");
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  return destroy("aclDestroyFloatArray", array, "array");
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  return destroy("aclDestroyBoolArray", array, "array");
}

aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  return api_any("aclDestroyTensorList", [&](Call&) {
    live_object(array, "tensor list");
    for (aclTensor* t : array->tensors) {  // the list owns its tensors
      if (nn::kill(t)) delete t;
    }
    nn::kill(array);
    delete array;
  });
}

aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
  return api_any("aclDestroyScalarList", [&](Call&) {
    live_object(array, "scalar list");
    for (aclScalar* s : array->scalars) {
      if (nn::kill(s)) delete s;
    }
    nn::kill(array);
    delete array;
  });
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  return get_dims("aclGetViewShape", tensor, &aclTensor::dims, viewDims, viewDimsNum);
}

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                               uint64_t* storageDimsNum) {
  return get_dims("aclGetStorageShape", tensor, &aclTensor::storage, storageDims, storageDimsNum);
}

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue,
                              uint64_t* stridesNum) {
  return get_dims("aclGetViewStrides", tensor, &aclTensor::strides, stridesValue, stridesNum);
}

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  return get_field("aclGetViewOffset", tensor, &aclTensor::offset, offset, "offset is NULL");
}

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  return get_field("aclGetFormat", tensor, &aclTensor::format, format, "format is NULL");
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  return get_field("aclGetDataType", tensor, &aclTensor::dtype, dataType, "dataType is NULL");
}

aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) {
  return get_field("aclGetRawTensorAddr", tensor, &aclTensor::data, addr, "addr is NULL");
}

aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) {
  return api_any("aclSetRawTensorAddr", [&](Call&) {
    live_object(tensor, "tensor");
    tensor->data = addr;
  });
}

namespace {
template <class T>
int array_size(const char* api, const T* a, uint64_t* size, const char* what) {
  return api_any(api, [&](Call&) {
    const T& x = live_object(a, what);
    require(size != nullptr, ACLNN_ERR_PARAM_NULLPTR, "size is NULL");
    if constexpr (std::is_same_v<T, aclTensorList>) {
      *size = x.tensors.size();
    } else if constexpr (std::is_same_v<T, aclScalarList>) {
      *size = x.scalars.size();
    } else {
      *size = x.values.size();
    }
  });
}
}  // namespace

aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
  return array_size("aclGetIntArraySize", array, size, "array");
}
aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
  return array_size("aclGetFloatArraySize", array, size, "array");
}
aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
  return array_size("aclGetBoolArraySize", array, size, "array");
}
aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
  return array_size("aclGetTensorListSize", tensorList, size, "tensorList");
}
aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size) {
  return array_size("aclGetScalarListSize", scalarList, size, "scalarList");
}
