// SPDX-License-Identifier: Apache-2.0
// TraceWriter: events are recorded as compact structs (one branch when disabled) and serialised
// by hand at write() time, metadata first, in the msprof layout of docs/sources.md §3.
#include "sim/trace.h"

#include <charconv>
#include <cmath>
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

void append_args(std::string& out, const std::vector<TraceArg>& args) {
  out += ",\"args\":{";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i) out += ',';
    append_escaped(out, args[i].key);
    out += ':';
    if (args[i].is_number) {
      append_double(out, args[i].number);
    } else {
      append_escaped(out, args[i].text);
    }
  }
  out += '}';
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

void TraceWriter::complete(int pid, int tid, const std::string& name, SimTime start, SimTime end,
                           std::vector<TraceArg> args) {
  if (!enabled_) return;
  SimTime dur = end > start ? end - start : 0;
  events_.push_back(Event{'X', pid, tid, start, dur, 0, 0, name, std::move(args)});
}

void TraceWriter::instant(int pid, int tid, const std::string& name, SimTime at,
                          std::vector<TraceArg> args) {
  if (!enabled_) return;
  events_.push_back(Event{'i', pid, tid, at, 0, 0, 0, name, std::move(args)});
}

void TraceWriter::flow_begin(int pid, int tid, std::uint64_t id, SimTime at) {
  if (!enabled_) return;
  events_.push_back(Event{'s', pid, tid, at, 0, id, 0, {}, {}});
}

void TraceWriter::flow_end(int pid, int tid, std::uint64_t id, SimTime at) {
  if (!enabled_) return;
  events_.push_back(Event{'f', pid, tid, at, 0, id, 0, {}, {}});
}

void TraceWriter::counter(int pid, const std::string& name, SimTime at, double value) {
  if (!enabled_) return;
  events_.push_back(Event{'C', pid, 0, at, 0, 0, value, name, {}});
}

std::size_t TraceWriter::event_count() const { return events_.size(); }

void TraceWriter::clear() { events_.clear(); }

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

void TraceWriter::write_event(std::string& out, const Event& e) const {
  if (e.ph == 's' || e.ph == 'f') {
    std::string id = std::to_string(e.id);
    append_head(out, e.ph == 's' ? "s" : "f", "HostToDevice" + id, e.pid, e.tid);
    out += ",\"cat\":\"HostToDevice\",\"id\":\"" + id + "\"";
    if (e.ph == 'f') out += ",\"bp\":\"e\"";
  } else {
    const char ph[2] = {e.ph, '\0'};
    append_head(out, ph, e.name, e.pid, e.tid);
    if (e.ph == 'i') out += ",\"s\":\"t\"";
  }
  out += ",\"ts\":";
  append_us(out, e.ts);
  if (e.ph == 'X') {
    out += ",\"dur\":";
    append_us(out, e.dur);
  }
  if (e.ph == 'C') {
    append_args(out, {TraceArg::num(e.name, e.value)});
  } else if (e.ph == 'X' || e.ph == 'i') {
    append_args(out, e.args);
  }
  out += '}';
}

void TraceWriter::write(const std::string& path) const {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error("cannot write trace file " + path);
  std::string buf = "[\n";
  write_metadata(buf);
  for (std::size_t i = 0; i < events_.size(); ++i) {
    write_event(buf, events_[i]);
    buf += i + 1 < events_.size() ? ",\n" : "\n";
    if (buf.size() > (1u << 20)) {
      f.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  }
  if (events_.empty() && buf.size() >= 3 && buf.compare(buf.size() - 2, 2, ",\n") == 0)
    buf.erase(buf.size() - 2, 1);  // no trailing comma after the last metadata event
  buf += "]\n";
  f.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  f.close();
  if (!f) throw std::runtime_error("cannot write trace file " + path);
}

}  // namespace npusim::sim
