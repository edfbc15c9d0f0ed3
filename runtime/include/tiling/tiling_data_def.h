/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's tiling-data classes: what host code declares with BEGIN_TILING_DATA_DEF and writes as
 * the bytes a kernel reads as a plain struct.
 *
 *   namespace optiling {
 *   BEGIN_TILING_DATA_DEF(MyTiling)
 *   TILING_DATA_FIELD_DEF(uint32_t, length);             // set_length / get_length
 *   TILING_DATA_FIELD_DEF_ARR(uint16_t, 4, dims);        // set_dims(const uint16_t*) / get_dims()
 *   TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, smax);   // a nested tiling class, member `smax`
 *   END_TILING_DATA_DEF;
 *   REGISTER_TILING_DATA_CLASS(MyOp, MyTiling)
 *   }
 *
 * Layout: fields in declaration order, each at the next offset that is a multiple of its own
 * alignment (a scalar's or array element's size; a nested class's largest field alignment), the
 * whole padded to its largest alignment -- the layout a C++ compiler gives the kernel's struct of
 * the same members, so `SaveToBuffer` writes exactly what `*reinterpret_cast<const Struct*>` on
 * the device side reads. GetDataSize is that padded size. SaveToBuffer fails (returns without
 * writing, logging why on stderr) when the buffer is smaller than GetDataSize.
 */
#ifndef NPUSIM_TILING_TILING_DATA_DEF_H_
#define NPUSIM_TILING_TILING_DATA_DEF_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

// CANN's tiling headers bring securec (memcpy_s): host tiling code copies its structures with it.
#if __has_include("securec.h")
#include "securec.h"
#endif

namespace optiling {

/// The base of every BEGIN_TILING_DATA_DEF class: its fields in order, the bytes of its own
/// scalar and array fields, and pointers to its nested tiling classes.
class TilingDef {
 public:
  TilingDef() = default;
  // Fields refer to their bytes by offset and to nested classes by their distance from `this`,
  // so the implicit copies (which do not re-run the members' initializers) stay consistent.
  TilingDef(const TilingDef&) = default;
  TilingDef& operator=(const TilingDef&) = default;
  virtual ~TilingDef() = default;

  /// The bytes SaveToBuffer writes: fields aligned, the total padded to the largest alignment.
  std::size_t GetDataSize() const {
    std::size_t off = 0;
    for (const Field& f : fields_) off = align(off, field_align(f)) + field_size(f);
    return align(off, GetAlign());
  }

  /// Writes the layout into `buf` (zeroing padding). Nothing is written when `cap` is short.
  void SaveToBuffer(void* buf, std::size_t cap) const {
    const std::size_t need = GetDataSize();
    if (buf == nullptr || cap < need) {
      std::fprintf(stderr, "[npusim] tiling %s: SaveToBuffer needs %zu bytes, buffer has %zu\n",
                   GetName(), need, buf == nullptr ? std::size_t{0} : cap);
      return;
    }
    std::memset(buf, 0, need);
    write(static_cast<std::uint8_t*>(buf));
  }

  /// The largest alignment among the fields (1 for an empty class).
  std::size_t GetAlign() const {
    std::size_t a = 1;
    for (const Field& f : fields_) a = field_align(f) > a ? field_align(f) : a;
    return a;
  }

  virtual const char* GetName() const { return "TilingData"; }

 protected:
  /// Registers a scalar or array field; returns its offset in this object's own bytes.
  std::size_t add_bytes(std::size_t elem_size, std::size_t count) {
    Field f;
    f.elem = elem_size;
    f.count = count;
    f.own = own_.size();
    own_.resize(own_.size() + elem_size * count, 0);
    fields_.push_back(f);
    return f.own;
  }
  /// Registers a nested tiling class member (kept as its distance from `this`).
  void add_nested(TilingDef* nested) {
    Field f;
    f.nested_off = reinterpret_cast<const std::uint8_t*>(nested) -
                   reinterpret_cast<const std::uint8_t*>(this);
    f.is_nested = true;
    fields_.push_back(f);
  }
  std::uint8_t* bytes(std::size_t off) { return own_.data() + off; }
  const std::uint8_t* bytes(std::size_t off) const { return own_.data() + off; }

 private:
  struct Field {
    std::size_t elem = 0, count = 0, own = 0;
    std::ptrdiff_t nested_off = 0;
    bool is_nested = false;
  };
  static std::size_t align(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }
  const TilingDef& nested(const Field& f) const {
    return *reinterpret_cast<const TilingDef*>(reinterpret_cast<const std::uint8_t*>(this) +
                                               f.nested_off);
  }
  std::size_t field_align(const Field& f) const {
    return f.is_nested ? nested(f).GetAlign() : f.elem;
  }
  std::size_t field_size(const Field& f) const {
    return f.is_nested ? nested(f).GetDataSize() : f.elem * f.count;
  }
  void write(std::uint8_t* out) const {
    std::size_t off = 0;
    for (const Field& f : fields_) {
      off = align(off, field_align(f));
      if (f.is_nested) {
        nested(f).write(out + off);
      } else {
        std::memcpy(out + off, own_.data() + f.own, f.elem * f.count);
      }
      off += field_size(f);
    }
  }

  std::vector<Field> fields_;
  std::vector<std::uint8_t> own_;
};

/// The classes REGISTER_TILING_DATA_CLASS names, by operator type (what CANN's factory keeps).
inline std::map<std::string, std::string>& tiling_data_classes() {
  static std::map<std::string, std::string> classes;
  return classes;
}
inline int register_tiling_data_class(const char* op_type, const char* class_name) {
  tiling_data_classes()[op_type] = class_name;
  return 0;
}

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                                         \
  class class_name : public ::optiling::TilingDef {                               \
   public:                                                                        \
    const char* GetName() const override { return #class_name; }                  \
    class_name() = default;

#define TILING_DATA_FIELD_DEF(type, name)                                                      \
   private:                                                                                    \
    std::size_t name##_off_ = add_bytes(sizeof(type), 1);                                      \
                                                                                               \
   public:                                                                                     \
    void set_##name(type v) { std::memcpy(bytes(name##_off_), &v, sizeof(type)); }             \
    type get_##name() const {                                                                  \
      type v;                                                                                  \
      std::memcpy(&v, bytes(name##_off_), sizeof(type));                                       \
      return v;                                                                                \
    }

#define TILING_DATA_FIELD_DEF_ARR(type, count, name)                                           \
   private:                                                                                    \
    std::size_t name##_off_ = add_bytes(sizeof(type), (count));                                \
                                                                                               \
   public:                                                                                     \
    void set_##name(const type* v) {                                                           \
      if (v != nullptr) std::memcpy(bytes(name##_off_), v, sizeof(type) * (count));            \
    }                                                                                          \
    type* get_##name() { return reinterpret_cast<type*>(bytes(name##_off_)); }

// A nested class: a public member, registered by the next member's initializer (after the
// nested object is constructed, so its own fields are known).
#define TILING_DATA_FIELD_DEF_STRUCT(type, name)          \
   public:                                                \
    type name;                                            \
                                                          \
   private:                                               \
    int name##_reg_ = (add_nested(&name), 0);             \
                                                          \
   public:

#define END_TILING_DATA_DEF }

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                               \
  [[maybe_unused]] static const int npusim_tiling_class_##op_type =                  \
      ::optiling::register_tiling_data_class(#op_type, #class_name);

#endif  // NPUSIM_TILING_TILING_DATA_DEF_H_
