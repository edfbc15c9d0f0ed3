// SPDX-License-Identifier: Apache-2.0
// TraceWriter: events are recorded as compact byte records (one branch when disabled) and
// serialised by hand at write() time, metadata first, in the msprof layout of docs/sources.md §3.
//
// Record layout (varint = LEB128, zigzag for signed values):
//   ph (1 byte: 'X', 'i', 's', 'f', 'C'; 'S', 'F' = device-to-device flow begin, end)
//   pid, tid            zigzag varints
//   ts                  zigzag varint of ts - (the previous record's ts), wrapping
//   'X': dur            varint
//   's'/'f'/'S'/'F': flow id    varint
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

/// What std::to_chars(double) writes for the integer n (below 2^53) at p: its digits, or the
/// scientific form when that is strictly shorter (1000000 -> "1e+06"), as to_chars chooses.
char* integer_number_chars(char* p, char* end, std::uint64_t n) {
  const auto r = std::to_chars(p, end, n);
  const auto len = r.ptr - p;
  if (len <= 5) return r.ptr;  // the scientific form takes at least 5 ("1e+05"): a tie or longer
  std::ptrdiff_t zeros = 0;
  while (p[len - 1 - zeros] == '0') ++zeros;
  const std::ptrdiff_t digits = len - zeros;
  const std::ptrdiff_t scientific = digits + (digits > 1 ? 1 : 0) + 4;  // d[.ddd]e+XX
  if (scientific < len) return std::to_chars(p, end, static_cast<double>(n)).ptr;
  return r.ptr;
}

/// write()'s output: raw appends into a 1 MiB block that goes to the file whenever it fills.
class JsonOut {
 public:
  explicit JsonOut(std::ofstream& f) : f_(f), buf_(new char[kSize]), p_(buf_.get()) {}
  void put(const char* s, std::size_t n) {
    if (n > room()) {
      flush();
      if (n > kSize) {
        f_.write(s, static_cast<std::streamsize>(n));
        return;
      }
    }
    std::memcpy(p_, s, n);
    p_ += n;
  }
  void put(std::string_view s) { put(s.data(), s.size()); }
  template <std::size_t N>
  void lit(const char (&s)[N]) {
    put(s, N - 1);
  }
  void ch(char c) {
    if (room() == 0) flush();
    *p_++ = c;
  }
  void integer(std::int64_t v) {
    char* p = reserve(kPiece);
    p_ = std::to_chars(p, p + kPiece, v).ptr;
  }
  void number(double v) {
    char* p = reserve(kPiece);
    if (!std::isfinite(v)) {
      std::memcpy(p, "null", 4);
      p_ = p + 4;
    } else {
      p_ = std::to_chars(p, p + kPiece, v).ptr;
    }
  }
  void integer_number(std::uint64_t n) {
    char* p = reserve(kPiece);
    p_ = integer_number_chars(p, p + kPiece, n);
  }
  /// Picoseconds as microseconds, exactly: 1234567 ps -> 1.234567, 2000000 ps -> 2.
  void us(SimTime ps) {
    char* p = reserve(kPiece);
    p = std::to_chars(p, p + kPiece, ps / kUs).ptr;
    SimTime frac = ps % kUs;
    if (frac != 0) {
      *p = '.';
      int len = 6;
      while (frac % 10 == 0) {
        frac /= 10;
        --len;
      }
      for (int i = len; i >= 1; --i, frac /= 10) p[i] = static_cast<char>('0' + frac % 10);
      p += len + 1;
    }
    p_ = p;
  }
  void flush() {
    f_.write(buf_.get(), p_ - buf_.get());
    p_ = buf_.get();
  }

 private:
  static constexpr std::size_t kSize = std::size_t{1} << 20;
  static constexpr std::size_t kPiece = 48;  // room for any number written in one go
  std::size_t room() const { return kSize - static_cast<std::size_t>(p_ - buf_.get()); }
  char* reserve(std::size_t n) {
    if (room() < n) flush();
    return p_;
  }
  std::ofstream& f_;
  std::unique_ptr<char[]> buf_;
  char* p_;
};

/// The fields every encoded event starts with, decoded.
struct EventHead {
  char ph;
  int pid;
  int tid;
  SimTime ts;
};

/// The phase and the ids of an event: ,"ph":"<ph>","pid":<pid>,"tid":<tid>
inline void write_phase_ids(JsonOut& out, char ph, const EventHead& h) {
  out.lit(",\"ph\":\"");
  out.ch(ph);
  out.lit("\",\"pid\":");
  out.integer(h.pid);
  out.lit(",\"tid\":");
  out.integer(h.tid);
}

/// Literal `a` when `first`, else literal `b`.
template <std::size_t N, std::size_t M>
inline void lit_either(JsonOut& out, bool first, const char (&a)[N], const char (&b)[M]) {
  if (first) {
    out.lit(a);
  } else {
    out.lit(b);
  }
}

/// A flow event ('s'/'f' host-to-device, 'S'/'F' device-to-device), without its closing brace;
/// p is just past the head and moves past the flow id.
inline void write_flow_event(JsonOut& out, const EventHead& h, const std::uint8_t*& p) {
  char id_buf[24];
  const auto r = std::to_chars(id_buf, id_buf + sizeof id_buf, get_varint(p));
  const std::string_view id(id_buf, static_cast<std::size_t>(r.ptr - id_buf));
  const bool host = h.ph == 's' || h.ph == 'f';
  const bool begin = h.ph == 's' || h.ph == 'S';
  lit_either(out, host, "{\"name\":\"HostToDevice", "{\"name\":\"DeviceToDevice");
  out.put(id);
  out.ch('"');
  write_phase_ids(out, begin ? 's' : 'f', h);
  lit_either(out, host, ",\"cat\":\"HostToDevice\",\"id\":\"",
             ",\"cat\":\"DeviceToDevice\",\"id\":\"");
  out.put(id);
  out.ch('"');
  if (!begin) out.lit(",\"bp\":\"e\"");
  out.lit(",\"ts\":");
  out.us(h.ts);
}

/// A number's varint already read (tag kInteger or kDouble; p moves past a double): as JSON.
inline void write_number(JsonOut& out, std::uint64_t word, const std::uint8_t*& p) {
  if ((word & 3) == kInteger) {
    out.integer_number(word >> 2);
  } else {
    out.number(get_number(word, p));
  }
}

/// A value's varint read from p (and its double, if any): the value as JSON.
inline void write_value(JsonOut& out, const std::vector<std::string>& text,
                        const std::uint8_t*& p) {
  const std::uint64_t word = get_varint(p);
  if ((word & 3) == kString) {
    out.put(text[word >> 2]);
  } else {
    write_number(out, word, p);
  }
}

/// The args object of a named event: a counter's one value under its own name, or the list of
/// key/value pairs of a complete or instant event.
inline void write_args(JsonOut& out, const std::vector<std::string>& text, char ph,
                       const std::string& name, const std::uint8_t*& p) {
  out.lit(",\"args\":{");
  if (ph == 'C') {
    out.put(name);
    out.ch(':');
    write_number(out, get_varint(p), p);
  } else {
    const std::uint64_t count = get_varint(p);
    for (std::uint64_t i = 0; i < count; ++i) {
      if (i) out.ch(',');
      out.put(text[get_varint(p)]);
      out.ch(':');
      write_value(out, text, p);
    }
  }
  out.ch('}');
}

/// A complete ('X'), instant ('i') or counter ('C') event, without its closing brace.
inline void write_named_event(JsonOut& out, const std::vector<std::string>& text,
                              const EventHead& h, const std::uint8_t*& p) {
  const char ph = h.ph;
  const SimTime dur = ph == 'X' ? get_varint(p) : 0;
  const std::string& name = text[get_varint(p)];
  out.lit("{\"name\":");
  out.put(name);
  write_phase_ids(out, ph == 'X' || ph == 'i' ? ph : 'C', h);
  if (ph == 'i') out.lit(",\"s\":\"t\"");
  out.lit(",\"ts\":");
  out.us(h.ts);
  if (ph == 'X') {
    out.lit(",\"dur\":");
    out.us(dur);
  }
  write_args(out, text, ph, name, p);
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
      std::memcmp(slot.kept, s.data(), s.size()) == 0) {
    return slot.id;
  }
  auto it = string_ids_.find(s);
  if (it == string_ids_.end()) {
    const auto id = static_cast<std::uint32_t>(strings_.size());
    const std::string& kept = strings_.emplace_back(s);
    it = string_ids_.emplace(std::string_view(kept), id).first;
    string_bytes_ += kept.capacity() > 15 ? kept.capacity() + 1 : 0;  // beyond the inline buffer
  }
  slot = CacheSlot{s.data(), it->first.data(), s.size(), it->second};
  return it->second;
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
  if (pid > 0) {
    const auto index = static_cast<std::size_t>(pid);
    if (index >= used_.size()) used_.resize(index + 1, false);
    used_[index] = true;
  }
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

void TraceWriter::flow_begin(int pid, int tid, std::uint64_t id, SimTime at, FlowKind kind) {
  if (!enabled_) return;
  const char ph = kind == FlowKind::kHostToDevice ? 's' : 'S';
  std::uint8_t* p = begin_record(reserve(1 + 4 * kMaxVarint), ph, pid, tid, at);
  commit(put_varint(p, id));
}

void TraceWriter::flow_end(int pid, int tid, std::uint64_t id, SimTime at, FlowKind kind) {
  if (!enabled_) return;
  const char ph = kind == FlowKind::kHostToDevice ? 'f' : 'F';
  std::uint8_t* p = begin_record(reserve(1 + 4 * kMaxVarint), ph, pid, tid, at);
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
  used_.clear();
}

void TraceWriter::write_metadata(std::string& out) const {
  const auto used = [this](int pid) {
    return static_cast<std::size_t>(pid) < used_.size() && used_[static_cast<std::size_t>(pid)];
  };
  for (std::size_t i = 0; i < processes_.size(); ++i) {
    const Process& p = processes_[i];
    int pid = static_cast<int>(i + 1);
    if (!used(pid)) continue;  // a process (a chip's) with no event shows no tracks
    append_meta(out, "process_name", pid, 0, "name", &p.name, 0);
    append_meta(out, "process_labels", pid, 0, "labels", &p.label, 0);
    append_meta(out, "process_sort_index", pid, 0, "sort_index", nullptr, p.sort_index);
  }
  for (const auto& [key, t] : threads_) {
    if (!used(key.first)) continue;
    append_meta(out, "thread_name", key.first, key.second, "name", &t.name, 0);
    append_meta(out, "thread_sort_index", key.first, key.second, "sort_index", nullptr,
                t.sort_index);
  }
}

void TraceWriter::write(const std::string& path) const {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error("cannot write trace file " + path);
  std::string meta = "[\n";
  write_metadata(meta);
  if (events_ == 0 && meta.size() >= 3 && meta.compare(meta.size() - 2, 2, ",\n") == 0)
    meta.erase(meta.size() - 2, 1);  // no trailing comma after the last metadata event
  JsonOut out(f);
  out.put(meta);
  std::vector<std::string> text(strings_.size());  // every interned string, quoted and escaped
  for (std::size_t i = 0; i < strings_.size(); ++i) text[i] = quoted(strings_[i]);
  std::size_t written = 0;
  SimTime ts = 0;
  for (const Chunk& c : chunks_) {
    const std::uint8_t* p = c.data.get();
    const std::uint8_t* const end = p + c.used;
    while (p < end) {
      EventHead head;
      head.ph = static_cast<char>(*p++);
      head.pid = static_cast<int>(unzigzag(get_varint(p)));
      head.tid = static_cast<int>(unzigzag(get_varint(p)));
      ts += static_cast<SimTime>(unzigzag(get_varint(p)));
      head.ts = ts;
      const char ph = head.ph;
      if (ph == 's' || ph == 'f' || ph == 'S' || ph == 'F') {
        write_flow_event(out, head, p);
      } else {
        write_named_event(out, text, head, p);
      }
      if (++written < events_) {
        out.lit("},\n");
      } else {
        out.lit("}\n");
      }
    }
  }
  out.lit("]\n");
  out.flush();
  f.close();
  if (!f) throw std::runtime_error("cannot write trace file " + path);
}

}  // namespace npusim::sim
