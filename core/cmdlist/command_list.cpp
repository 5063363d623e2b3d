#include "core/cmdlist/command_list.h"

#include "backends/cpu/affinity.h"
#include "core/device/device.h"

namespace tessera::core {

CommandList::CommandList(Context& context, Device& device, uint32_t ordinal,
                         ze_command_list_flags_t flags)
    : context_(context), device_(device), ordinal_(ordinal), flags_(flags),
      buffer_(newBuffer()) {}

std::shared_ptr<CommandBuffer> CommandList::newBuffer() {
  auto buffer = std::make_shared<CommandBuffer>();
  buffer->context = &context_;
  return buffer;
}

ze_result_t CommandList::create(Context& context, Device& device,
                                const ze_command_list_desc_t& desc,
                                std::unique_ptr<CommandList>& out) {
  if (desc.commandQueueGroupOrdinal >= device.queueGroups().size())
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  out.reset(new CommandList(context, device, desc.commandQueueGroupOrdinal, desc.flags));
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::createImmediate(Context& context, Device& device,
                                         const ze_command_queue_desc_t& desc,
                                         std::unique_ptr<CommandList>& out) {
  std::unique_ptr<CommandQueue> queue;
  if (ze_result_t r = CommandQueue::create(context, device, desc, queue); r != ZE_RESULT_SUCCESS)
    return r;
  ze_command_list_flags_t flags =
      (desc.flags & ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY) ? ZE_COMMAND_LIST_FLAG_EXPLICIT_ONLY : 0;
  out.reset(new CommandList(context, device, desc.ordinal, flags));
  out->queue_ = std::move(queue);
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::append(Command command) {
  if (!queue_) {
    if (closed_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    buffer_->add(std::move(command));
    return ZE_RESULT_SUCCESS;
  }
  if (queue_->synchronous()) {
    // The lowest latency: run on the calling thread, when it is on one of the device's PUs (or the
    // topology is not this machine's), which keeps "a queue executes only on its device's PUs".
    const auto& cpus = device_.pinCpus();
    if (cpus.empty() || backends::cpu::runningOn(cpus)) {
      runCommand(command, ExecutionTarget{device_, !isCopyOnly(), nullptr});
      return ZE_RESULT_SUCCESS;
    }
  }
  auto buffer = newBuffer();
  buffer->add(std::move(command));
  uint64_t ticket = queue_->submit({std::move(buffer)}, Ref<Fence>());
  if (queue_->synchronous()) queue_->waitFor(ticket);
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::close() {
  // "An immediate command list is not required to be closed or reset. However, usage will be
  // honored": closing it changes nothing.
  if (!queue_) closed_ = true;
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::reset() {
  if (queue_) {
    queue_->synchronize(sync::kForever);
    return ZE_RESULT_SUCCESS;
  }
  // Executions still in flight keep the old buffer.
  buffer_ = newBuffer();
  closed_ = false;
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
