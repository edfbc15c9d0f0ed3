#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""npusim report: the timeline model (tracks, engines, pipes) and time binning."""
import re

from report_page import Plotting, to_float

class Track:
    __slots__ = ("pid", "tid", "name", "sort", "starts", "durs", "names", "bytes")

    def __init__(self, pid, tid, name, sort):
        self.pid, self.tid, self.name, self.sort = pid, tid, name, sort
        self.starts, self.durs, self.names, self.bytes = [], [], [], []


class Timeline:
    def __init__(self, events):
        self.procs = {}       # pid -> name
        self.labels = {}      # pid -> label (NPU k)
        self.tracks = {}      # (pid, tid) -> Track
        thread_names, thread_sort = {}, {}
        for e in events:
            if not isinstance(e, dict):
                continue
            ph = e.get("ph")
            if ph != "M":
                continue
            args = e.get("args") if isinstance(e.get("args"), dict) else {}
            key = (e.get("pid"), e.get("tid"))
            if e.get("name") == "process_name":
                self.procs[e.get("pid")] = str(args.get("name", ""))
            elif e.get("name") == "process_labels":
                self.labels[e.get("pid")] = str(args.get("labels", ""))
            elif e.get("name") == "thread_name":
                thread_names[key] = str(args.get("name", ""))
            elif e.get("name") == "thread_sort_index":
                thread_sort[key] = args.get("sort_index", 0)
        for key, name in thread_names.items():
            self.tracks[key] = Track(key[0], key[1], name, thread_sort.get(key, key[1]))
        self.slices = 0
        self.t_end = 0.0
        for e in events:
            if not isinstance(e, dict) or e.get("ph") != "X":
                continue
            ts, dur = to_float(e.get("ts")), to_float(e.get("dur", 0))
            if ts is None or dur is None:
                continue
            key = (e.get("pid"), e.get("tid"))
            t = self.tracks.get(key)
            if t is None:
                t = self.tracks[key] = Track(key[0], key[1], f"tid {key[1]}", key[1])
            args = e.get("args") if isinstance(e.get("args"), dict) else {}
            t.starts.append(ts)
            t.durs.append(max(dur, 0.0))
            t.names.append(str(e.get("name", "")))
            t.bytes.append(to_float(args.get("size(B)")) or 0.0)
            self.slices += 1
            self.t_end = max(self.t_end, ts + dur)

    def tracks_of(self, pred):
        out = [t for t in self.tracks.values() if pred(self.procs.get(t.pid, ""), t)]
        return sorted(out, key=lambda t: (t.pid, t.sort, t.tid))


ENGINE_SUFFIX = re.compile(r"^(.*?)(?: ch| core)? \d+$")
PIPE_TRACK = re.compile(r"^(AIC|AIV|AI Core) \d+ ([A-Z][A-Z0-9]*)$")  # aicore.trace_pipes: 'AIV 3 MTE2'


def pipe_of(track_name):
    """'AIV 3 MTE2' -> 'AIV MTE2' for a per-pipe track, else None."""
    m = PIPE_TRACK.match(track_name)
    return f"{m.group(1)} {m.group(2)}" if m else None


def engine_of(track_name):
    """'AIC 3' -> 'AIC', 'PCIe H2D ch 0' -> 'PCIe H2D', 'AI CPU core 2' -> 'AI CPU'."""
    m = ENGINE_SUFFIX.match(track_name)
    return m.group(1) if m else track_name


def busy_per_bin(starts, durs, edges):
    """Busy time of a set of (possibly overlapping) slices in each bin [edges[i], edges[i+1])."""
    s = Plotting.np.sort(Plotting.np.asarray(starts, dtype=float))
    e = Plotting.np.sort(Plotting.np.asarray(starts, dtype=float) + Plotting.np.asarray(durs, dtype=float))
    cs = Plotting.np.concatenate([[0.0], Plotting.np.cumsum(s)])
    ce = Plotting.np.concatenate([[0.0], Plotting.np.cumsum(e)])
    ns = Plotting.np.searchsorted(s, edges, side="left")
    ne = Plotting.np.searchsorted(e, edges, side="left")
    # F(t) = sum over slices of min(max(t - s, 0), d) = sum_{s<t}(t - s) - sum_{e<t}(t - e)
    f = ns * edges - cs[ns] - (ne * edges - ce[ne])
    return Plotting.np.diff(f)


def bytes_per_bin(starts, durs, nbytes, edges):
    """Bytes of transfers spread evenly over each slice, per bin."""
    s = Plotting.np.asarray(starts, dtype=float)
    d = Plotting.np.asarray(durs, dtype=float)
    b = Plotting.np.asarray(nbytes, dtype=float)
    out = Plotting.np.zeros(len(edges) - 1)
    inst = d <= 0
    if inst.any():  # zero-length transfers: all their bytes in the bin they start in
        idx = Plotting.np.clip(Plotting.np.searchsorted(edges, s[inst], side="right") - 1, 0, len(out) - 1)
        Plotting.np.add.at(out, idx, b[inst])
    if (~inst).any():
        s, d, b = s[~inst], d[~inst], b[~inst]
        rate = b / d
        # Bytes up to t: sum rate * min(max(t - s, 0), d), as in busy_per_bin but weighted.
        order_s = Plotting.np.argsort(s, kind="stable")
        order_e = Plotting.np.argsort(s + d, kind="stable")
        ss, rs = s[order_s], rate[order_s]
        ee, re_ = (s + d)[order_e], rate[order_e]
        crs = Plotting.np.concatenate([[0.0], Plotting.np.cumsum(rs)])
        crss = Plotting.np.concatenate([[0.0], Plotting.np.cumsum(rs * ss)])
        cre = Plotting.np.concatenate([[0.0], Plotting.np.cumsum(re_)])
        cree = Plotting.np.concatenate([[0.0], Plotting.np.cumsum(re_ * ee)])
        ns = Plotting.np.searchsorted(ss, edges, side="left")
        ne = Plotting.np.searchsorted(ee, edges, side="left")
        f = crs[ns] * edges - crss[ns] - (cre[ne] * edges - cree[ne])
        out += Plotting.np.diff(f)
    return out


def time_axis(t0, t1, nbins=200):
    if t1 <= t0:
        t1 = t0 + 1.0
    return Plotting.np.linspace(t0, t1, nbins + 1)


def time_unit(span_us):
    if span_us >= 2e6:
        return 1e6, "s"
    if span_us >= 2e3:
        return 1e3, "ms"
    return 1.0, "µs"
