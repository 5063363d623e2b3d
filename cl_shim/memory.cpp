#include "cl_shim/memory.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "cl_shim/api_support.h"
#include "cl_shim/errors.h"

namespace tessera::cl {
namespace {

constexpr size_t kBufferAlignment = 128;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8

int popcount(cl_mem_flags f) { return __builtin_popcountll(f); }

}  // namespace

bool validMemFlags(cl_mem_flags flags) {
  const cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
                             CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
                             CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  // CL_MEM_KERNEL_READ_AND_WRITE is not among them: "This flag is only used by
  // clGetSupportedImageFormats".
  if (flags & ~known) return false;
  // "CL_INVALID_VALUE if values specified in flags are not valid": the mutually exclusive groups.
  if (popcount(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)) > 1) return false;
  if (popcount(flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) > 1)
    return false;
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return false;
  return true;
}

Memory* Memory::createBuffer(Context& context, cl_mem_flags flags, size_t size, void* hostPtr,
                             std::vector<cl_mem_properties> properties, cl_int& err) {
  if (flags == 0) flags = CL_MEM_READ_WRITE;  // "the default is used which is CL_MEM_READ_WRITE"
  if (!validMemFlags(flags)) { err = CL_INVALID_VALUE; return nullptr; }
  // "CL_INVALID_BUFFER_SIZE if size is 0 or if size is greater than CL_DEVICE_MAX_MEM_ALLOC_SIZE
  // value ... for all devices in context."
  uint64_t maxAlloc = 0;
  for (auto& d : context.devices()) maxAlloc = std::max(maxAlloc, d->zeProperties().maxMemAllocSize);
  if (size == 0 || size > maxAlloc) { err = CL_INVALID_BUFFER_SIZE; return nullptr; }
  // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR are
  // set in flags or if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not
  // set in flags."
  bool wantsHostPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wantsHostPtr != (hostPtr != nullptr)) { err = CL_INVALID_HOST_PTR; return nullptr; }

  auto* m = new Memory;
  m->context_ = Ref<Context>(&context);
  m->flags_ = flags;
  m->size_ = size;
  m->properties_ = std::move(properties);
  if (flags & CL_MEM_USE_HOST_PTR) {
    m->hostPtr_ = hostPtr;
    m->address_ = static_cast<char*>(hostPtr);
    // CL_MEM_USES_SVM_POINTER: "CL_TRUE if memobj is a buffer object that was created with
    // CL_MEM_USE_HOST_PTR or is a sub-buffer object of a buffer object that was created with
    // CL_MEM_USE_HOST_PTR and the host_ptr specified when the buffer object was created is a SVM
    // pointer; otherwise returns CL_FALSE."
    m->usesSvm_ = context.isSvmPointer(hostPtr);
  } else {
    if ((err = m->allocateStorage(size)) != CL_SUCCESS) {
      m->releaseApi();
      return nullptr;
    }
    if (flags & CL_MEM_COPY_HOST_PTR) std::memcpy(m->address_, hostPtr, size);
  }
  err = CL_SUCCESS;
  return m;
}

cl_int Memory::allocateStorage(size_t bytes) {
  ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  void* p = nullptr;
  ze_result_t r = zeMemAllocHost(context_->ze(), &desc, bytes, kBufferAlignment, &p);
  if (r != ZE_RESULT_SUCCESS)
    return r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ? CL_OUT_OF_HOST_MEMORY
                                                   : CL_MEM_OBJECT_ALLOCATION_FAILURE;
  address_ = static_cast<char*>(p);
  ownsStorage_ = true;
  return CL_SUCCESS;
}

Memory* Memory::createSubBuffer(Memory& parent, cl_mem_flags flags, size_t origin, size_t size,
                                cl_int& err) {
  // "CL_INVALID_MEM_OBJECT if buffer is ... a sub-buffer object."
  if (parent.parent_) { err = CL_INVALID_MEM_OBJECT; return nullptr; }
  const cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  const cl_mem_flags hostAccess = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  // "CL_INVALID_VALUE if the buffer was created with CL_MEM_WRITE_ONLY and flags specifies
  // CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, ... or if flags specifies CL_MEM_USE_HOST_PTR,
  // CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR", and likewise for the host access flags.
  if (!validMemFlags(flags) ||
      (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) {
    err = CL_INVALID_VALUE;
    return nullptr;
  }
  cl_mem_flags p = parent.flags_;
  if (((p & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((p & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((p & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((p & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((p & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))) {
    err = CL_INVALID_VALUE;
    return nullptr;
  }
  // "CL_INVALID_VALUE if the region specified ... is out of bounds of buffer"; "CL_INVALID_BUFFER_SIZE
  // if the size field of the cl_buffer_region structure ... is 0".
  if (size == 0) { err = CL_INVALID_BUFFER_SIZE; return nullptr; }
  if (origin > parent.size_ || size > parent.size_ - origin) { err = CL_INVALID_VALUE; return nullptr; }
  // "CL_MISALIGNED_SUB_BUFFER_OFFSET if ... origin is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN".
  if (origin % kBufferAlignment) { err = CL_MISALIGNED_SUB_BUFFER_OFFSET; return nullptr; }
  // Unspecified access flags are inherited from the parent.
  if (!(flags & access)) flags |= p & access;
  if (!(flags & hostAccess)) flags |= p & hostAccess;
  flags |= p & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  auto* m = new Memory;
  m->context_ = parent.context_;
  m->parent_ = Ref<Memory>(&parent);
  m->flags_ = flags;
  m->size_ = size;
  m->offset_ = origin;
  m->address_ = parent.address_ + origin;
  m->usesSvm_ = parent.usesSvm_;
  if (parent.hostPtr_) m->hostPtr_ = static_cast<char*>(parent.hostPtr_) + origin;
  err = CL_SUCCESS;
  return m;
}

Memory::Memory()
    : serial_([] {
        static std::atomic<uint64_t> next{1};
        return next.fetch_add(1, std::memory_order_relaxed);
      }()) {}

Memory* Memory::buffer(cl_mem h) {
  Memory* m = from(h);
  return m && !m->image_ ? m : nullptr;
}

Memory* Memory::image(cl_mem h) {
  Memory* m = from(h);
  return m && m->image_ ? m : nullptr;
}

Memory::~Memory() {
  // "The registered user callback functions are called in the reverse order in which they were
  // registered ... when the memory object is deleted" (after the storage may be reused).
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it)
    it->first(handle(), it->second);
  // An image's ze images go before the storage they are over (and its buffer's reference after).
  image_.reset();
  if (ownsStorage_) zeMemFree(context_->ze(), address_);
}

void Memory::addMapping(void* p) {
  std::lock_guard lock(mutex_);
  mappings_.push_back(p);
}

bool Memory::removeMapping(void* p) {
  std::lock_guard lock(mutex_);
  for (auto it = mappings_.rbegin(); it != mappings_.rend(); ++it) {
    if (*it == p) {
      mappings_.erase(std::next(it).base());
      return true;
    }
  }
  return false;
}

void Memory::addDestructorCallback(MemDestructorNotify fn, void* data) {
  std::lock_guard lock(mutex_);
  destructorCallbacks_.emplace_back(fn, data);
}

cl_int Memory::info(cl_mem_info param, size_t size, void* value, size_t* sizeRet) {
  InfoWriter out(size, value, sizeRet);
  switch (param) {
    case CL_MEM_TYPE:
      return out.scalar<cl_mem_object_type>(image_ ? image_->type() : CL_MEM_OBJECT_BUFFER);
    case CL_MEM_FLAGS: return out.scalar(flags_);
    case CL_MEM_SIZE: return out.scalar(size_);
    case CL_MEM_HOST_PTR: return out.scalar(hostPtr_);
    case CL_MEM_MAP_COUNT: {
      std::lock_guard lock(mutex_);
      return out.scalar<cl_uint>(cl_uint(mappings_.size()));
    }
    case CL_MEM_REFERENCE_COUNT: return out.scalar<cl_uint>(apiRefs());
    case CL_MEM_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_MEM_ASSOCIATED_MEMOBJECT: {
      // "the memory object specified as buffer argument to clCreateSubBuffer" or
      // "image_desc->mem_object if memobj is an image object created using clCreateImage".
      Memory* from = parent_ ? parent_.get() : image_ ? image_->buffer() : nullptr;
      return out.scalar<cl_mem>(from ? from->handle() : nullptr);
    }
    case CL_MEM_OFFSET: return out.scalar(offset_);
    case CL_MEM_USES_SVM_POINTER: return out.scalar<cl_bool>(usesSvm_ ? CL_TRUE : CL_FALSE);
    case CL_MEM_PROPERTIES: return out.array(properties_);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace tessera::cl
