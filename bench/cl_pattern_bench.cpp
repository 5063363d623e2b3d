// The kernel-pattern bench (issue 29): kernels shaped like applications' (bench/kernels/patterns.cl
// and suite.cl's tiled SGEMM), timed by event profiling on every OpenCL platform the ICD loader
// shows (Tessera and PoCL side by side when OCL_ICD_VENDORS names a folder with both; scripts/
// bench.sh makes one), each result checked against the host. On Tessera each pattern also runs with
// the widening off (TESSERA_WIDEN=0), forced to 16 work-items (TESSERA_WIDEN=16) and with the rows
// of 2-D groups run one by one (TESSERA_ROW_JAM=0), in child processes, since the settings are read
// once per process. Printed per pattern: kernel time (median
// of the repetitions), PoCL's time over Tessera's (above 1: Tessera faster) and the fraction of the
// machine's limit: the copy bandwidth measured in the same run for patterns whose traffic is known,
// the FMA peak measured in the same run for the SGEMM (host::fmaPeak: independent FMA chains in
// registers on every PU, at the host's widest vectors; a figure from the nominal clock understated
// it by a third on a host that boosts: 166 against 227 GFLOP/s measured).
//
//   cl_pattern_bench [--quick] [--rounds N] [--platform NAME]... [--pattern KEY]...
//                    [--markdown FILE]
//
// --quick: small sizes and 2 repetitions (the ctest smoke run; no timing is asserted).
// --rounds N: each pattern N times on every platform in turn, in reverse order every other round
// (every platform's context lives in the one process), each cell the median over the rounds and the
// PoCL / Tessera ratio the median of the rounds' ratios, so that a VM whose speed drifts over
// minutes (this project's 2-vCPU hosts: a pattern's time moved 2x within one process) compares
// neighbouring runs, not one platform's quiet minute with the other's loud one. The children take
// their N rounds in their own process.
// --pattern: only the patterns of these keys (pattern_cases.cpp: copy, median, sgemm, ...) and the
// copy, whose bandwidth the fractions need; for repeated runs of one pattern.
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "cl_check.h"
#include "cl_platforms.h"
#include "host_reference.h"
#include "pattern_cases.h"

namespace {

using tessera::bench::platformMatches;
using tessera::bench::platformName;

using namespace tessera::bench::patterns;

std::string readFile(const char* path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  if (s.str().empty()) {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(1);
  }
  return s.str();
}

struct Row {
  std::map<std::string, Outcome> byColumn;  // platform or "Tessera, widen 0" etc.
};

// Runs the patterns as a child with `setting` (VAR=value) on Tessera, and reads its results into
// `column`.
void runChild(const std::string& self, const char* setting, const std::string& column, bool quick,
              int rounds, const std::vector<std::string>& only, std::map<std::string, Row>& rows) {
  std::string cmd = std::string(setting) + " '" + self + "' --child --platform Tessera" +
                    (quick ? " --quick" : "") + " --rounds " + std::to_string(rounds);
  for (const std::string& key : only) cmd += " --pattern '" + key + "'";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return;
  char key[128];
  double ms = 0;
  int ok = 0;
  while (std::fscanf(p, " RESULT %127s %lf %d", key, &ms, &ok) == 3)
    rows[key].byColumn[column] = Outcome{ms, ok != 0, 0};
  pclose(p);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, child = false;
  int rounds = 1;
  std::vector<std::string> filters, only;
  const char* markdown = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick")
      quick = true;
    else if (a == "--child")
      child = true;
    else if (a == "--platform" && i + 1 < argc)
      filters.push_back(argv[++i]);
    else if (a == "--markdown" && i + 1 < argc)
      markdown = argv[++i];
    else if (a == "--rounds" && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else if (a == "--pattern" && i + 1 < argc)
      only.push_back(argv[++i]);
    else {
      std::fprintf(stderr,
                   "usage: %s [--quick] [--rounds N] [--platform NAME]... [--pattern KEY]... "
                   "[--markdown FILE]\n",
                   argv[0]);
      return 2;
    }
  }
  auto selected = [&](const Pattern& p) {
    return only.empty() || std::string(p.key) == "copy" ||
           std::find(only.begin(), only.end(), p.key) != only.end();
  };
  const std::string source =
      readFile(TESSERA_BENCH_SUITE_CL) + "\n" + readFile(TESSERA_BENCH_PATTERNS_CL);

  // The FMA peak before any platform is loaded, so that no runtime's worker threads compete with
  // it, and again after the children (children print only their times); the higher counts: on a
  // shared VM one measurement gave 284 GFLOP/s and the next minute's 436.
  const long peakIters = quick ? 1'000'000 : 4'000'000;
  double peak = child ? 0 : tessera::bench::host::fmaPeak(peakIters).first;

  cl_uint n = 0;
  clGetPlatformIDs(0, nullptr, &n);
  std::vector<cl_platform_id> platforms(n);
  if (n) clGetPlatformIDs(n, platforms.data(), nullptr);
  // Every platform's context at once, so that each pattern's rounds alternate between them.
  std::vector<std::pair<std::string, std::unique_ptr<PlatformContext>>> contexts;
  for (cl_platform_id platform : platforms) {
    std::string name = platformName(platform);
    if (!platformMatches(name, filters)) continue;
    cl_device_id device = nullptr;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr) != CL_SUCCESS) continue;
    contexts.emplace_back(name, std::make_unique<PlatformContext>(device, source));
  }
  std::vector<std::string> columns;
  bool sawTessera = false;
  for (auto& [name, context] : contexts) {
    columns.push_back(name);
    sawTessera |= name == "Tessera";
  }
  std::map<std::string, Row> rows;
  std::map<std::string, double> ratios;  // PoCL / Tessera: the median of the rounds' ratios
  for (const Pattern& pattern : patterns()) {
    if (!selected(pattern)) continue;
    std::map<std::string, std::vector<double>> times;
    std::vector<double> roundRatios;
    for (int r = 0; r < rounds; ++r) {
      // Odd rounds take the platforms in reverse order, so that a VM's drift within a round
      // (its memory's speed moves minute to minute) does not always favour the same one.
      for (size_t i = 0; i < contexts.size(); ++i) {
        auto& [name, context] = contexts[r % 2 ? contexts.size() - 1 - i : i];
        Outcome o = pattern.run(*context, quick);
        Outcome& cell = rows[pattern.key].byColumn[name];
        cell.ok = (r == 0 || cell.ok) && o.ok;  // wrong in any round: wrong
        cell.work = o.work;
        times[name].push_back(o.ms);
      }
      if (times.count("Tessera") && times.count("PoCL") && times["Tessera"].back() > 0)
        roundRatios.push_back(times["PoCL"].back() / times["Tessera"].back());
    }
    for (auto& [name, v] : times) {
      Outcome& cell = rows[pattern.key].byColumn[name];
      cell.ms = tessera::bench::stats(v).median;
      if (child) std::printf("RESULT %s %.6f %d\n", pattern.key, cell.ms, cell.ok ? 1 : 0);
    }
    std::fflush(stdout);
    if (!roundRatios.empty()) ratios[pattern.key] = tessera::bench::stats(roundRatios).median;
  }
  contexts.clear();
  if (child) return 0;
  if (sawTessera) {
    const std::pair<const char*, const char*> children[] = {
        {"TESSERA_WIDEN=0", "Tessera, widen 0"},
        {"TESSERA_WIDEN=16", "Tessera, widen 16"},
        {"TESSERA_ROW_JAM=0", "Tessera, rows one by one"}};
    for (auto [setting, column] : children) {
      runChild(argv[0], setting, column, quick, rounds, only, rows);
      columns.push_back(column);
    }
  }

  peak = std::max(peak, tessera::bench::host::fmaPeak(peakIters).first);

  // The machine's copy bandwidth: the best copy of any platform in this run.
  double copyGBs = 0;
  for (auto& [column, o] : rows["copy"].byColumn)
    if (o.ok && o.ms > 0) copyGBs = std::max(copyGBs, o.work / (o.ms * 1e6));

  std::ostringstream table;
  table << "| pattern |";
  for (const std::string& c : columns) table << " " << c << " ms |";
  table << " PoCL / Tessera | Tessera, fraction of the limit |\n|---|";
  for (size_t i = 0; i < columns.size() + 2; ++i) table << "---|";
  table << "\n";
  bool allOk = true;
  for (const Pattern& pattern : patterns()) {
    if (!selected(pattern)) continue;
    Row& row = rows[pattern.key];
    table << "| " << pattern.label << " |";
    for (const std::string& c : columns) {
      auto it = row.byColumn.find(c);
      char cell[64] = "-";
      if (it != row.byColumn.end())
        std::snprintf(cell, sizeof cell, "%.2f%s", it->second.ms, it->second.ok ? "" : " WRONG");
      if (it != row.byColumn.end() && !it->second.ok) allOk = false;
      table << " " << cell << " |";
    }
    auto t = row.byColumn.find("Tessera");
    char ratio[32] = "-", limit[64] = "-";
    if (ratios.count(pattern.key)) std::snprintf(ratio, sizeof ratio, "%.2fx", ratios[pattern.key]);
    if (t != row.byColumn.end() && t->second.ms > 0 && t->second.work > 0) {
      if (pattern.limit == Limit::Bandwidth && copyGBs > 0)
        std::snprintf(limit, sizeof limit, "%.0f%% of %.1f GB/s",
                      100.0 * t->second.work / (t->second.ms * 1e6) / copyGBs, copyGBs);
      else if (pattern.limit == Limit::Flops && peak > 0)
        std::snprintf(limit, sizeof limit, "%.0f%% of %.0f GFLOP/s",
                      100.0 * t->second.work / (t->second.ms * 1e6) / peak, peak);
    }
    table << " " << ratio << " | " << limit << " |\n";
  }
  std::printf("%s", table.str().c_str());
  if (markdown != nullptr) std::ofstream(markdown) << table.str();
  return allOk ? 0 : 1;
}
