// SPDX-License-Identifier: Apache-2.0
// TraceWriter: events are recorded as compact byte records (one branch when disabled) and
// serialised by hand at write() time, metadata first, in the msprof layout of hw-params.md §3.2.
//
// Record layout (varint = LEB128, zigzag for signed values):
//   ph (1 byte: 'X', 'i', 's', 'f', 'C')
//   pid, tid            zigzag varints
//   ts                  zigzag varint of ts - (the previous record's ts), wrapping
//   'X': dur            varint
//   's'/'f': flow id    varint
//   'X'/'i'/'C': name   varint (interned string id)
//   'C': value          number (below)
//   'X'/'i': arg count  varint, then per arg: key id varint, value
// A value is a varint whose low 2 bits say what it is: 0 = string (id << 2), 1 = number that is a
// non-negative integer below 2^53 (n << 2 | 1), 2 = any other number, its 8 bytes follow.
#include "sim/trace.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace npusim::sim {
namespace {

void append_escaped(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char* kHex = "0123456789abcdef";
          out += "\\u00";
          out += kHex[(c >> 4) & 0xF];
          out += kHex[c & 0xF];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

template <class Int>
void append_int(std::string& out, Int v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_double(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

/// Picoseconds as microseconds, exactly: 1234567 ps → 1.234567, 2000000 ps → 2.
void append_us(std::string& out, SimTime ps) {
  append_int(out, ps / kUs);
  SimTime frac = ps % kUs;
  if (frac == 0) return;
  char digits[7] = "000000";
  for (int i = 5; i >= 0; --i, frac /= 10) digits[i] = static_cast<char>('0' + frac % 10);
  int len = 6;
  while (digits[len - 1] == '0') --len;
  out += '.';
  out.append(digits, static_cast<std::size_t>(len));
}

/// `{"name":<quoted>,"ph":"<ph>","pid":<pid>,"tid":<tid>` with the name already quoted.
void append_head_quoted(std::string& out, const char* ph, std::string_view quoted_name, int pid,
                        int tid) {
  out += "{\"name\":";
  out += quoted_name;
  out += ",\"ph\":\"";
  out += ph;
  out += "\",\"pid\":";
  append_int(out, pid);
  out += ",\"tid\":";
  append_int(out, tid);
}

void append_head(std::string& out, const char* ph, const std::string& name, int pid, int tid) {
  out += "{\"name\":";
  append_escaped(out, name);
  out += ",\"ph\":\"";
  out += ph;
  out += "\",\"pid\":";
  append_int(out, pid);
  out += ",\"tid\":";
  append_int(out, tid);
}

void append_meta(std::string& out, const char* what, int pid, int tid, const char* key,
                 const std::string* text, int number) {
  append_head(out, "M", what, pid, tid);
  out += ",\"args\":{\"";
  out += key;
  out += "\":";
  if (text) {
    append_escaped(out, *text);
  } else {
    append_int(out, number);
  }
  out += "}},\n";
}


// --- record encoding ---

constexpr std::size_t kMaxVarint = 10;
constexpr std::uint64_t kExactIntegers = std::uint64_t{1} << 53;  // doubles hold every integer below
enum ValueTag : std::uint64_t { kString = 0, kInteger = 1, kDouble = 2 };

inline std::uint8_t* put_varint(std::uint8_t* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<std::uint8_t>(v);
  return p;
}

inline std::uint64_t get_varint(const std::uint8_t*& p) {
  std::uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const std::uint8_t b = *p++;
    v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
    if (b < 0x80) return v;
  }
}

inline std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

inline std::int64_t unzigzag(std::uint64_t z) {
  return static_cast<std::int64_t>(z >> 1) ^ -static_cast<std::int64_t>(z & 1);
}

inline std::uint8_t* put_number(std::uint8_t* p, double v) {
  if (v >= 0 && v < static_cast<double>(kExactIntegers) && !std::signbit(v)) {
    const auto n = static_cast<std::uint64_t>(v);
    if (static_cast<double>(n) == v) return put_varint(p, n << 2 | kInteger);
  }
  *p++ = static_cast<std::uint8_t>(kDouble);
  std::memcpy(p, &v, sizeof v);
  return p + sizeof v;
}

/// A value's varint already read: the number it holds (tag kInteger or kDouble).
inline double get_number(std::uint64_t word, const std::uint8_t*& p) {
  if ((word & 3) == kInteger) return static_cast<double>(word >> 2);
  double v;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return v;
}

std::string quoted(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 2);
  append_escaped(out, s);
  return out;
}

}  // namespace

int TraceWriter::process(const std::string& name, const std::string& label, int sort_index) {
  // One process per (name, label): every device has its own "Ascend Hardware" ("NPU <n>").
  auto key = std::make_pair(name, label);
  auto it = pids_.find(key);
  if (it != pids_.end()) return it->second;
  processes_.push_back({name, label, sort_index});
  int pid = static_cast<int>(processes_.size());
  pids_.emplace(key, pid);
  return pid;
}

void TraceWriter::thread(int pid, int tid, const std::string& name, int sort_index) {
  threads_.emplace(std::make_pair(pid, tid), Thread{name, sort_index});
}

std::uint32_t TraceWriter::intern(std::string_view s) {
  if (!cache_) cache_ = std::make_unique<CacheSlot[]>(kCacheSlots);
  const auto address = reinterpret_cast<std::uintptr_t>(s.data());
  CacheSlot& slot = cache_[((address >> 3) ^ (address >> 11) ^ s.size()) % kCacheSlots];
  if (slot.data == s.data() && slot.data != nullptr && slot.size == s.size() &&
      (s.empty() || std::memcmp(strings_[slot.id].data(), s.data(), s.size()) == 0)) {
    return slot.id;
  }
  auto it = string_ids_.find(s);
  std::uint32_t id;
  if (it != string_ids_.end()) {
    id = it->second;
  } else {
    id = static_cast<std::uint32_t>(strings_.size());
    const std::string& kept = strings_.emplace_back(s);
    string_ids_.emplace(std::string_view(kept), id);
    string_bytes_ += kept.capacity() > 15 ? kept.capacity() + 1 : 0;  // beyond the inline buffer
  }
  slot = CacheSlot{s.data(), s.size(), id};
  return id;
}

std::uint8_t* TraceWriter::reserve(std::size_t bytes) {
  if (chunks_.empty() || chunks_.back().size - chunks_.back().used < bytes) {
    Chunk c;
    c.size = std::max(kChunkBytes, bytes);
    c.data.reset(new std::uint8_t[c.size]);
    chunks_.push_back(std::move(c));
  }
  return chunks_.back().data.get() + chunks_.back().used;
}

void TraceWriter::commit(std::uint8_t* end) {
  Chunk& c = chunks_.back();
  c.used = static_cast<std::size_t>(end - c.data.get());
  ++events_;
}

std::uint8_t* TraceWriter::begin_record(std::uint8_t* p, char ph, int pid, int tid, SimTime ts) {
  *p++ = static_cast<std::uint8_t>(ph);
  p = put_varint(p, zigzag(pid));
  p = put_varint(p, zigzag(tid));
  p = put_varint(p, zigzag(static_cast<std::int64_t>(ts - last_ts_)));
  last_ts_ = ts;
  return p;
}

template <class Arg>
void TraceWriter::record(char ph, int pid, int tid, std::string_view name, SimTime ts, SimTime dur,
                         const Arg* args, std::size_t count) {
  const std::uint32_t name_id = intern(name);
  std::uint8_t* p = reserve(1 + 5 * kMaxVarint + count * (2 * kMaxVarint));
  p = begin_record(p, ph, pid, tid, ts);
  if (ph == 'X') p = put_varint(p, dur);
  p = put_varint(p, name_id);
  p = put_varint(p, count);
  for (std::size_t i = 0; i < count; ++i) {
    const Arg& a = args[i];
    p = put_varint(p, intern(a.key));
    if (a.is_number) {
      p = put_number(p, a.number);
    } else {
      p = put_varint(p, std::uint64_t{intern(a.text)} << 2 | kString);
    }
  }
  commit(p);
}

void TraceWriter::complete(int pid, int tid, std::string_view name, SimTime start, SimTime end,
                           const std::vector<TraceArg>& args) {
  if (!enabled_) return;
  record('X', pid, tid, name, start, end > start ? end - start : 0, args.data(), args.size());
}

void TraceWriter::complete(int pid, int tid, std::string_view name, SimTime start, SimTime end,
                           std::initializer_list<TraceField> args) {
  if (!enabled_) return;
  record('X', pid, tid, name, start, end > start ? end - start : 0, args.begin(), args.size());
}

void TraceWriter::complete(int pid, int tid, std::string_view name, SimTime start, SimTime end,
                           const TraceField* args, std::size_t count) {
  if (!enabled_) return;
  record('X', pid, tid, name, start, end > start ? end - start : 0, args, count);
}

void TraceWriter::instant(int pid, int tid, std::string_view name, SimTime at,
                          const std::vector<TraceArg>& args) {
  if (!enabled_) return;
  record('i', pid, tid, name, at, 0, args.data(), args.size());
}

void TraceWriter::instant(int pid, int tid, std::string_view name, SimTime at,
                          std::initializer_list<TraceField> args) {
  if (!enabled_) return;
  record('i', pid, tid, name, at, 0, args.begin(), args.size());
}

void TraceWriter::flow_begin(int pid, int tid, std::uint64_t id, SimTime at) {
  if (!enabled_) return;
  std::uint8_t* p = begin_record(reserve(1 + 4 * kMaxVarint), 's', pid, tid, at);
  commit(put_varint(p, id));
}

void TraceWriter::flow_end(int pid, int tid, std::uint64_t id, SimTime at) {
  if (!enabled_) return;
  std::uint8_t* p = begin_record(reserve(1 + 4 * kMaxVarint), 'f', pid, tid, at);
  commit(put_varint(p, id));
}

void TraceWriter::counter(int pid, std::string_view name, SimTime at, double value) {
  if (!enabled_) return;
  const std::uint32_t name_id = intern(name);
  std::uint8_t* p = begin_record(reserve(1 + 5 * kMaxVarint), 'C', pid, 0, at);
  p = put_varint(p, name_id);
  commit(put_number(p, value));
}

std::size_t TraceWriter::memory_bytes() const {
  std::size_t bytes = chunks_.capacity() * sizeof(Chunk);
  for (const Chunk& c : chunks_) bytes += c.size;
  // The deque's blocks hold the std::string objects; a node per entry in the map, plus buckets.
  bytes += strings_.size() * sizeof(std::string) + string_bytes_;
  bytes += string_ids_.size() * (sizeof(std::string_view) + sizeof(std::uint32_t) + 2 * sizeof(void*));
  if (!string_ids_.empty()) bytes += string_ids_.bucket_count() * sizeof(void*);
  if (cache_) bytes += kCacheSlots * sizeof(CacheSlot);
  return bytes;
}

void TraceWriter::clear() {
  chunks_.clear();
  events_ = 0;
  last_ts_ = 0;
}

void TraceWriter::write_metadata(std::string& out) const {
  for (std::size_t i = 0; i < processes_.size(); ++i) {
    const Process& p = processes_[i];
    int pid = static_cast<int>(i + 1);
    append_meta(out, "process_name", pid, 0, "name", &p.name, 0);
    append_meta(out, "process_labels", pid, 0, "labels", &p.label, 0);
    append_meta(out, "process_sort_index", pid, 0, "sort_index", nullptr, p.sort_index);
  }
  for (const auto& [key, t] : threads_) {
    append_meta(out, "thread_name", key.first, key.second, "name", &t.name, 0);
    append_meta(out, "thread_sort_index", key.first, key.second, "sort_index", nullptr,
                t.sort_index);
  }
}

void TraceWriter::write(const std::string& path) const {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error("cannot write trace file " + path);
  std::string buf = "[\n";
  write_metadata(buf);
  std::vector<std::string> text(strings_.size());  // every interned string, quoted and escaped
  for (std::size_t i = 0; i < strings_.size(); ++i) text[i] = quoted(strings_[i]);
  std::size_t written = 0;
  SimTime ts = 0;
  char ph_text[2] = {0, 0};
  for (const Chunk& c : chunks_) {
    const std::uint8_t* p = c.data.get();
    const std::uint8_t* const end = p + c.used;
    while (p < end) {
      const char ph = static_cast<char>(*p++);
      ph_text[0] = ph;
      const auto pid = static_cast<int>(unzigzag(get_varint(p)));
      const auto tid = static_cast<int>(unzigzag(get_varint(p)));
      ts += static_cast<SimTime>(unzigzag(get_varint(p)));
      if (ph == 's' || ph == 'f') {
        char id_buf[24];
        const auto r = std::to_chars(id_buf, id_buf + sizeof id_buf, get_varint(p));
        const std::string_view id(id_buf, static_cast<std::size_t>(r.ptr - id_buf));
        buf += "{\"name\":\"HostToDevice";
        buf += id;
        buf += "\",\"ph\":\"";
        buf += ph_text;
        buf += "\",\"pid\":";
        append_int(buf, pid);
        buf += ",\"tid\":";
        append_int(buf, tid);
        buf += ",\"cat\":\"HostToDevice\",\"id\":\"";
        buf += id;
        buf += '"';
        if (ph == 'f') buf += ",\"bp\":\"e\"";
        buf += ",\"ts\":";
        append_us(buf, ts);
      } else {
        const SimTime dur = ph == 'X' ? get_varint(p) : 0;
        const std::string& name = text[get_varint(p)];
        append_head_quoted(buf, ph_text, name, pid, tid);
        if (ph == 'i') buf += ",\"s\":\"t\"";
        buf += ",\"ts\":";
        append_us(buf, ts);
        if (ph == 'X') {
          buf += ",\"dur\":";
          append_us(buf, dur);
        }
        buf += ",\"args\":{";
        if (ph == 'C') {
          buf += name;
          buf += ':';
          const std::uint64_t word = get_varint(p);
          append_double(buf, get_number(word, p));
        } else {
          const std::uint64_t count = get_varint(p);
          for (std::uint64_t i = 0; i < count; ++i) {
            if (i) buf += ',';
            buf += text[get_varint(p)];
            buf += ':';
            const std::uint64_t word = get_varint(p);
            if ((word & 3) == kString) {
              buf += text[word >> 2];
            } else {
              append_double(buf, get_number(word, p));
            }
          }
        }
        buf += '}';
      }
      buf += '}';
      buf += ++written < events_ ? ",\n" : "\n";
      if (buf.size() > (1u << 20)) {
        f.write(buf.data(), static_cast<std::streamsize>(buf.size()));
        buf.clear();
      }
    }
  }
  if (events_ == 0 && buf.size() >= 3 && buf.compare(buf.size() - 2, 2, ",\n") == 0)
    buf.erase(buf.size() - 2, 1);  // no trailing comma after the last metadata event
  buf += "]\n";
  f.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  f.close();
  if (!f) throw std::runtime_error("cannot write trace file " + path);
}

}  // namespace npusim::sim
