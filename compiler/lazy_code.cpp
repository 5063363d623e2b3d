#include "compiler/lazy_code.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <thread>
#include <vector>

#include "compiler/compiler.h"

namespace tessera::compiler {

struct LazyCode::Slot {
  std::mutex mutex;  // held while the kernel compiles: a second caller waits for that compile
  bool done = false;
  std::shared_ptr<const ModuleCode> code;
  std::string error;
};

namespace {

// The CPUs this process may run on: the most threads compile() keeps runnable at once.
size_t usableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

// The code of a program's exported functions when it has none: no kernel, no symbol.
struct NoCode final : ModuleCode {
  size_t kernelCount() const override { return 0; }
  const KernelCode& kernel(size_t) const override { std::abort(); }
  bool saveable() const override { return false; }
};

}  // namespace

LazyCode::LazyCode(Compiler& compiler, std::shared_ptr<const Program> program,
                   std::optional<std::string> bitcode)
    : compiler_(compiler),
      program_(std::move(program)),
      bitcode_(std::move(bitcode)),
      units_(program_->info.kernels.size() + (program_->functionExports().empty() ? 0 : 1)),
      slots_(new Slot[units_]) {}

LazyCode::~LazyCode() = default;

const std::string* LazyCode::bitcode(std::string& log) {
  std::lock_guard lock(bitcodeMutex_);
  if (!bitcode_ && translationError_.empty()) {
    std::string bytes, warnings;
    if (compiler_.translateProgram(*program_, bytes, translationError_, warnings))
      bitcode_ = std::move(bytes);
  }
  if (!bitcode_) log += translationError_;
  return bitcode_ ? &*bitcode_ : nullptr;
}

std::shared_ptr<const ModuleCode> LazyCode::exported(std::string& log) {
  if (units_ == program_->info.kernels.size()) return std::make_shared<NoCode>();
  return kernel(program_->info.kernels.size(), log);
}

std::shared_ptr<const ModuleCode> LazyCode::kernel(size_t index, std::string& log) {
  if (index >= units_) return nullptr;
  Slot& slot = slots_[index];
  std::lock_guard lock(slot.mutex);
  if (!slot.done) {
    // An exception (std::bad_alloc) leaves the slot as it was: a later call tries again.
    std::string error;
    slot.code = compiler_.compileKernel(*this, index, error);
    slot.error = std::move(error);
    slot.done = true;
    if (slot.code && index < program_->info.kernels.size()) compiled_.fetch_add(1);
  }
  if (!slot.code) log += slot.error;
  return slot.code;
}

bool LazyCode::compile(std::span<const size_t> indices, std::string& log) {
  std::vector<size_t> todo;
  for (size_t i = 0; i < (indices.empty() ? units_ : indices.size()); ++i) {
    size_t k = indices.empty() ? i : indices[i];
    if (k < units_ && std::find(todo.begin(), todo.end(), k) == todo.end()) todo.push_back(k);
  }
  std::vector<std::string> logs(todo.size());
  std::vector<char> ok(todo.size(), 0);
  std::atomic<size_t> next{0};
  std::mutex failureMutex;
  std::exception_ptr failure;
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < todo.size();) {
      try {
        ok[i] = kernel(todo[i], logs[i]) != nullptr;
      } catch (...) {
        std::lock_guard lock(failureMutex);
        if (!failure) failure = std::current_exception();
        next.store(todo.size());  // no more work: the caller rethrows
      }
    }
  };
  // This thread and as many more as there are CPUs to keep busy (and kernels to share).
  const size_t helpers = std::min(usableCpus(), todo.size()) - (todo.empty() ? 0 : 1);
  std::vector<std::thread> threads;
  try {
    for (size_t t = 0; t < helpers; ++t) threads.emplace_back(work);
  } catch (const std::system_error&) {
    // No thread to spare: this one does all the work.
  }
  work();
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  bool all = true;
  for (size_t i = 0; i < todo.size(); ++i) {
    all = all && ok[i];
    log += logs[i];
  }
  return all;
}

std::shared_ptr<const ModuleCode> LazyCode::whole() {
  std::lock_guard lock(wholeMutex_);
  if (whole_) return whole_;
  std::vector<std::shared_ptr<const ModuleCode>> units;
  for (size_t i = 0; i < units_; ++i) {
    std::lock_guard slotLock(slots_[i].mutex);
    if (!slots_[i].code) return nullptr;
    units.push_back(slots_[i].code);
  }
  whole_ = compiler_.combineUnits(*program_, std::move(units));
  return whole_;
}

}  // namespace tessera::compiler
