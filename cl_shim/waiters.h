// Threads the OpenCL layer starts to wait for a Level Zero event on the application's behalf
// (clSetEventCallback before the status is reached, clEnqueueSVMFree's free step). Each one is
// joined: by the next start once it is done, and all at the library's exit, when those still
// waiting (an event that never completes) stop waiting and do nothing more. So no thread of the
// OpenCL layer outlives the process's exit handlers (LeakSanitizer's exit scan needs that).
#pragma once

#include <level_zero/ze_api.h>

#include <functional>

namespace tessera::cl {

// Runs `work` on a thread of its own; `work` waits with waitForEvent().
void startWaiter(std::function<void()> work);

// zeEventHostSynchronize until the event is signalled (true) or the process is exiting (false).
bool waitForEvent(ze_event_handle_t event);

}  // namespace tessera::cl
