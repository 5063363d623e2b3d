// Timeline trace (TESSERA_TRACE=path.json): Chrome / Perfetto trace-event JSON of what the driver ran.
//
// A leaf library (tessera_trace): it includes nothing of Tessera but the bottom layer (config/, which
// declares its two variables, and support/), so backends/cpu may use it too.
// Off, every hook costs one relaxed load of a bool (`enabled()`). On, records go into a buffer of
// fixed capacity (TESSERA_TRACE_EVENTS records, config/settings.def, allocated at the first record);
// records past the capacity are counted as dropped, never stored. The file is written at exit, when
// the library is unloaded, and by flush(). "%p" in the path is replaced by the process id, so a
// parent and the children it starts write files of their own.
//
// Threading: every function may be called from any thread; a record is written by one thread into
// a slot it reserved with one atomic add, and published with a release store.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

namespace tessera::trace {

extern std::atomic<bool> gEnabled;
inline bool enabled() { return gEnabled.load(std::memory_order_relaxed); }

// CLOCK_MONOTONIC in nanoseconds (the trace's time base).
uint64_t nowNs();

// One record. `args` is a JSON object's members without braces (`"size":64,"x":[1,2]`), copied
// (cut at 160 bytes, at a member boundary the caller chooses by keeping it short).
void complete(std::string_view category, std::string_view name, uint64_t startNs, uint64_t endNs,
              std::string_view args = {});
void instant(std::string_view category, std::string_view name, uint64_t ts,
             std::string_view args = {});
// Flow arrows: a start at the signalling slice, an end at the waiting slice ("bp":"e": bound to
// the enclosing slice), matched by id.
void flowStart(uint64_t id, uint64_t ts);
void flowEnd(uint64_t id, uint64_t ts);
// Names the calling thread's track ("queue 2 ...", "worker 1 ..."); `sortIndex` orders tracks.
void nameThread(std::string_view name, int sortIndex);
// A number for each queue, in creation order.
uint32_t nextQueueNumber();

// The label of the command the calling thread runs, for the worker spans of its parallel jobs.
void setCurrentLabel(std::string_view label);
const char* currentLabel();

// Writes the file now (everything recorded so far; the exit writes it again with the rest).
void flush();
// Records stored and dropped so far.
uint64_t recorded();
uint64_t dropped();

}  // namespace tessera::trace
