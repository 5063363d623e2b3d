// A cl_mem: a buffer or an image, host memory the device reaches directly (a Tessera device is the
// host). Its storage is a Level Zero host allocation, or the application's memory for
// CL_MEM_USE_HOST_PTR (zero copy, as OpenCL intends it on a CPU); a sub-buffer is a window on its
// parent's storage, an image made from a buffer uses the buffer's. Maps return pointers into the
// storage itself. An image has an Image part (image.h) with its format, sizes and ze images.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "cl_shim/context.h"
#include "cl_shim/image.h"
#include "cl_shim/object.h"

namespace tessera::cl {

using MemDestructorNotify = void(CL_CALLBACK*)(cl_mem, void*);

class Memory : public Object<_cl_mem, 0x4d454d31 /* "MEM1" */> {
 public:
  // clCreateBuffer(WithProperties): checks flags, size and host_ptr as the spec says.
  static Memory* createBuffer(Context& context, cl_mem_flags flags, size_t size, void* hostPtr,
                              std::vector<cl_mem_properties> properties, cl_int& err);
  // clCreateSubBuffer with CL_BUFFER_CREATE_TYPE_REGION.
  static Memory* createSubBuffer(Memory& parent, cl_mem_flags flags, size_t origin, size_t size,
                                 cl_int& err);
  // clCreateImage(WithProperties) and the 1.1 creators (image_create.cpp): checks the flags,
  // format, descriptor and host_ptr as the spec says.
  static Memory* createImage(Context& context, cl_mem_flags flags, const cl_image_format* format,
                             const cl_image_desc* desc, void* hostPtr,
                             std::vector<cl_mem_properties> properties, cl_int& err);
  static Memory* from(cl_mem h) { return Object::from<Memory>(h); }
  // A live buffer or image: the handle's object when it is one, else null.
  static Memory* buffer(cl_mem h);
  static Memory* image(cl_mem h);

  // The image part (image.h); null for a buffer.
  const Image* image() const { return image_.get(); }

  Context& context() const { return *context_; }
  cl_mem_flags flags() const { return flags_; }
  size_t size() const { return size_; }
  // Where the data is: what a kernel argument receives and what maps return (plus an offset).
  char* address() const { return address_; }
  Memory* parent() const { return parent_.get(); }
  size_t offset() const { return offset_; }
  // Unique per object over the process's life: tells a live buffer from a later one that took the
  // handle's memory (kernel arguments name buffers without holding them).
  uint64_t serial() const { return serial_; }

  // CL_MEM_HOST_WRITE_ONLY / READ_ONLY / NO_ACCESS: may the host read (clEnqueueRead*, map for
  // reading) or write?
  bool hostMayRead() const { return !(flags_ & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)); }
  bool hostMayWrite() const { return !(flags_ & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)); }

  // The root buffer (itself unless a sub-buffer) and the offset of this object's storage in it:
  // what overlap checks compare.
  Memory& root() { return parent_ ? *parent_ : *this; }
  // CL_MEM_USE_HOST_PTR on memory of a clSVMAlloc allocation of the context.
  bool usesSvmPointer() const { return usesSvm_; }

  // Maps: each clEnqueueMapBuffer records the pointer it returned; clEnqueueUnmapMemObject must
  // give one of them back (CL_MEM_MAP_COUNT counts them).
  void addMapping(void* p);
  bool removeMapping(void* p);  // false when `p` is not a mapping of this object

  void addDestructorCallback(MemDestructorNotify fn, void* data);
  cl_int info(cl_mem_info param, size_t size, void* value, size_t* sizeRet);

 protected:
  ~Memory() override;

 private:
  Memory();
  // Storage of its own: a Level Zero host allocation (CL_MEM_OBJECT_ALLOCATION_FAILURE or
  // CL_OUT_OF_HOST_MEMORY when there is none).
  cl_int allocateStorage(size_t bytes);

  const uint64_t serial_;
  Ref<Context> context_;
  Ref<Memory> parent_;
  cl_mem_flags flags_ = 0;
  size_t size_ = 0;
  size_t offset_ = 0;
  void* hostPtr_ = nullptr;    // CL_MEM_USE_HOST_PTR's pointer (CL_MEM_HOST_PTR)
  char* address_ = nullptr;
  bool ownsStorage_ = false;   // a Level Zero host allocation to free
  std::vector<cl_mem_properties> properties_;
  bool usesSvm_ = false;
  std::mutex mutex_;
  std::vector<void*> mappings_;
  std::vector<std::pair<MemDestructorNotify, void*>> destructorCallbacks_;
  std::unique_ptr<Image> image_;
};

// The access flags a buffer's flags may combine: exactly one of these read/write kinds.
bool validMemFlags(cl_mem_flags flags);

}  // namespace tessera::cl
