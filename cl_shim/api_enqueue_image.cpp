// Image commands: read, write, copy, fill, copies to and from buffers, and map (unmap is
// clEnqueueUnmapMemObject's, api_enqueue_memory.cpp). Each checks its handles and arguments as the
// spec says, then appends Level Zero image copies (the Ext variants, which take the host's
// pitches), memory fills over the image's pixels, or a barrier for a map (an image is host memory:
// a map is the memory itself), holding the memory objects until the command completes.
#include <algorithm>
#include <cstdint>

#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/enqueue_support.h"
#include "cl_shim/image_copy.h"

namespace tessera::cl::api {
namespace {

using Ze = ze_command_list_handle_t;

// "CL_INVALID_OPERATION if the device associated with command_queue does not support images".
bool queueHasImages(const Queue& q) { return q.device().imageSupport(); }

cl_int readWriteImage(bool write, cl_command_queue queue, cl_mem image, cl_bool blocking,
                      const size_t* origin, const size_t* region, size_t rowPitch,
                      size_t slicePitch, void* ptr, cl_uint n, const cl_event* waits,
                      cl_event* event) {
  Queue* q;
  Memory* m;
  if (cl_int e = queueAndImage(queue, image, q, m); e != CL_SUCCESS) return e;
  const Image& img = *m->image();
  // "CL_INVALID_VALUE if origin is NULL, if region is NULL, if the region being read or written
  // specified by origin and region is out of bounds, if values in origin and region do not follow
  // the rules described in the argument description for origin and region, if image is a 1D or 2D
  // image and slice_pitch or input_slice_pitch is not zero, if ptr is NULL."
  if (!imageRegionOk(img, origin, region) || !ptr) return CL_INVALID_VALUE;
  HostLayout host;
  if (!hostLayout(img, region, rowPitch, slicePitch, host)) return CL_INVALID_VALUE;
  if (!waitListShapeOk(n, waits)) return CL_INVALID_EVENT_WAIT_LIST;
  if (!queueHasImages(*q)) return CL_INVALID_OPERATION;
  // "CL_INVALID_OPERATION if clEnqueueReadImage is called on image which has been created with
  // CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS" (and the write's converse).
  if (write ? !m->hostMayWrite() : !m->hostMayRead()) return CL_INVALID_OPERATION;
  ze_image_handle_t zi = img.zeFor(q->device());
  char* p = static_cast<char*>(ptr);
  return q->enqueue(
      write ? CL_COMMAND_WRITE_IMAGE : CL_COMMAND_READ_IMAGE, n, waits, event,
      [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
        return appendHostCopy(l, write, zi, img, p, origin, region, host, signal, nw, w);
      },
      {m}, blocking);
}

// The image of an image <-> buffer copy and the buffer, both of the queue's context.
cl_int imageAndBuffer(cl_command_queue queue, cl_mem image, cl_mem buffer, Queue*& q, Memory*& im,
                      Memory*& buf) {
  if (cl_int e = queueAndImage(queue, image, q, im); e != CL_SUCCESS) return e;
  if (cl_int e = queueAndBuffer(queue, buffer, q, buf); e != CL_SUCCESS) return e;
  // "CL_INVALID_MEM_OBJECT if src_image is a 1D image buffer object created from dst_buffer" (and
  // dst_image from src_buffer).
  if (im->image()->buffer() == buf) return CL_INVALID_MEM_OBJECT;
  return CL_SUCCESS;
}

cl_int copyImageBuffer(bool toBuffer, cl_command_queue queue, cl_mem image, cl_mem buffer,
                       const size_t* origin, const size_t* region, size_t offset, cl_uint n,
                       const cl_event* waits, cl_event* event) {
  Queue* q;
  Memory *im, *buf;
  if (cl_int e = imageAndBuffer(queue, image, buffer, q, im, buf); e != CL_SUCCESS) return e;
  const Image& img = *im->image();
  // "CL_INVALID_VALUE if src_origin is NULL, if region is NULL, if the 1D, 2D or 3D rectangular
  // region specified by src_origin and region is out of bounds of src_image, if the region
  // specified by dst_offset and the computed dst_cb is out of bounds of dst_buffer".
  if (!imageRegionOk(img, origin, region)) return CL_INVALID_VALUE;
  HostLayout tight;
  hostLayout(img, region, 0, 0, tight);
  if (!inBounds(offset, tight.bytes, buf->size())) return CL_INVALID_VALUE;
  if (!waitListShapeOk(n, waits)) return CL_INVALID_EVENT_WAIT_LIST;
  if (!queueHasImages(*q)) return CL_INVALID_OPERATION;
  ze_image_handle_t zi = img.zeFor(q->device());
  char* p = buf->address() + offset;
  return q->enqueue(
      toBuffer ? CL_COMMAND_COPY_IMAGE_TO_BUFFER : CL_COMMAND_COPY_BUFFER_TO_IMAGE, n, waits,
      event,
      [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
        return appendHostCopy(l, !toBuffer, zi, img, p, origin, region, tight, signal, nw, w);
      },
      {im, buf});
}

// Do two boxes of one image overlap in every coordinate?
bool boxesOverlap(const size_t* a, const size_t* b, const size_t* region) {
  for (int i = 0; i < 3; ++i)
    if (a[i] >= b[i] + region[i] || b[i] >= a[i] + region[i]) return false;
  return true;
}

}  // namespace

cl_int clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                          const size_t* origin, const size_t* region, size_t row_pitch,
                          size_t slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                          const cl_event* event_wait_list, cl_event* event) {
  return guarded([&] {
    return readWriteImage(false, command_queue, image, blocking_read, origin, region, row_pitch,
                          slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                           const size_t* origin, const size_t* region, size_t input_row_pitch,
                           size_t input_slice_pitch, const void* ptr,
                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                           cl_event* event) {
  return guarded([&] {
    return readWriteImage(true, command_queue, image, blocking_write, origin, region,
                          input_row_pitch, input_slice_pitch, const_cast<void*>(ptr),
                          num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                          const size_t* src_origin, const size_t* dst_origin, const size_t* region,
                          cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                          cl_event* event) {
  return guarded([&] {
    Queue* q;
    Memory *src, *dst;
    if (cl_int e = queueAndPair(command_queue, src_image, dst_image, queueAndImage, q, src, dst);
        e != CL_SUCCESS)
      return e;
    const Image &si = *src->image(), &di = *dst->image();
    // "CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same image format."
    const cl_image_format &sf = si.format().cl, &df = di.format().cl;
    if (sf.image_channel_order != df.image_channel_order ||
        sf.image_channel_data_type != df.image_channel_data_type)
      return CL_IMAGE_FORMAT_MISMATCH;
    // Origins and region: each image's rules ("If src_image or dst_image is a 2D image object,
    // region[2] must be 1" and the like) and bounds.
    if (!imageRegionOk(si, src_origin, region) || !imageRegionOk(di, dst_origin, region))
      return CL_INVALID_VALUE;
    // "CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object and the source and
    // destination regions overlap."
    if (src == dst && boxesOverlap(src_origin, dst_origin, region)) return CL_MEM_COPY_OVERLAP;
    if (!waitListShapeOk(num_events_in_wait_list, event_wait_list))
      return CL_INVALID_EVENT_WAIT_LIST;
    if (!queueHasImages(*q)) return CL_INVALID_OPERATION;
    ze_image_handle_t zs = si.zeFor(q->device()), zd = di.zeFor(q->device());
    return q->enqueue(
        CL_COMMAND_COPY_IMAGE, num_events_in_wait_list, event_wait_list, event,
        [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
          // Different images over one memory (buffer images of one buffer) may overlap too:
          // Level Zero's ZE_RESULT_ERROR_OVERLAPPING_REGIONS is CL_MEM_COPY_OVERLAP.
          ze_image_region_t sr = zeRegion(src_origin, region), dr = zeRegion(dst_origin, region);
          return zeCommandListAppendImageCopyRegion(l, zd, zs, &dr, &sr, signal, nw, w);
        },
        {src, dst});
  });
}

cl_int clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void* fill_color,
                          const size_t* origin, const size_t* region,
                          cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                          cl_event* event) {
  return guarded([&] {
    Queue* q;
    Memory* m;
    if (cl_int e = queueAndImage(command_queue, image, q, m); e != CL_SUCCESS) return e;
    const Image& img = *m->image();
    // "CL_INVALID_VALUE if fill_color is NULL, if origin is NULL, if region is NULL, if the region
    // being filled specified by origin and region is out of bounds".
    if (!fill_color || !imageRegionOk(img, origin, region)) return CL_INVALID_VALUE;
    if (!waitListShapeOk(num_events_in_wait_list, event_wait_list))
      return CL_INVALID_EVENT_WAIT_LIST;
    if (!queueHasImages(*q)) return CL_INVALID_OPERATION;
    // "The fill color will be converted to the appropriate image channel format and order
    // associated with image", here, once: the pattern is copied when the fill is appended.
    uint8_t pixel[16];
    encodePixel(img.format(), fill_color, pixel);
    char* base = m->address();
    return q->enqueue(
        CL_COMMAND_FILL_IMAGE, num_events_in_wait_list, event_wait_list, event,
        [&](Ze l, ze_event_handle_t signal, uint32_t nw, ze_event_handle_t* w) {
          return appendPixelFill(l, img, base, origin, region, pixel, signal, nw, w);
        },
        {m});
  });
}

cl_int clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                  cl_mem dst_buffer, const size_t* src_origin, const size_t* region,
                                  size_t dst_offset, cl_uint num_events_in_wait_list,
                                  const cl_event* event_wait_list, cl_event* event) {
  return guarded([&] {
    return copyImageBuffer(true, command_queue, src_image, dst_buffer, src_origin, region,
                           dst_offset, num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                  cl_mem dst_image, size_t src_offset, const size_t* dst_origin,
                                  const size_t* region, cl_uint num_events_in_wait_list,
                                  const cl_event* event_wait_list, cl_event* event) {
  return guarded([&] {
    // The buffer is checked first here, as it comes first.
    Queue* q;
    Memory* b;
    if (cl_int e = queueAndBuffer(command_queue, src_buffer, q, b); e != CL_SUCCESS) return e;
    return copyImageBuffer(false, command_queue, dst_image, src_buffer, dst_origin, region,
                           src_offset, num_events_in_wait_list, event_wait_list, event);
  });
}

void* clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                        cl_map_flags map_flags, const size_t* origin, const size_t* region,
                        size_t* image_row_pitch, size_t* image_slice_pitch,
                        cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                        cl_event* event, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> void* {
    Queue* q;
    Memory* m;
    if ((err = queueAndImage(command_queue, image, q, m)) != CL_SUCCESS) return nullptr;
    const Image& img = *m->image();
    const cl_mem_object_type t = img.type();
    const bool sliced = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                        t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    // "CL_INVALID_VALUE if origin is NULL, if region is NULL, if the region being mapped specified
    // by origin and region is out of bounds, if values specified in map_flags are not valid, if
    // values in origin and region do not follow the rules ..., if image_row_pitch is NULL, if
    // image is a 1D or 2D image array object and image_slice_pitch is NULL, if image is a 3D and
    // image_slice_pitch is NULL".
    if (!imageRegionOk(img, origin, region) || !validMapFlags(map_flags) || !image_row_pitch ||
        (sliced && !image_slice_pitch)) {
      err = CL_INVALID_VALUE;
      return nullptr;
    }
    if (!waitListShapeOk(num_events_in_wait_list, event_wait_list)) {
      err = CL_INVALID_EVENT_WAIT_LIST;
      return nullptr;
    }
    if (!queueHasImages(*q) || !hostMayMap(*m, map_flags)) {
      err = CL_INVALID_OPERATION;
      return nullptr;
    }
    // The image's own pixels: "The pointer value returned by clEnqueueMapImage will be derived
    // from the host_ptr specified when the image object is created" for CL_MEM_USE_HOST_PTR. A 1D
    // array's layers are its slices ("the size of each 1D or 2D image in a 1D or 2D image array");
    // "For a 1D and 2D image, zero is returned" as the slice pitch.
    void* p = m->address() + img.offsetOf(origin);
    err = q->enqueue(CL_COMMAND_MAP_IMAGE, num_events_in_wait_list, event_wait_list, event,
                     appendNop, {m}, blocking_map);
    if (err != CL_SUCCESS) return nullptr;
    *image_row_pitch = img.yPitch();
    if (image_slice_pitch)
      *image_slice_pitch = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? img.yPitch() : img.zPitch();
    m->addMapping(p);
    return p;
  });
}

}  // namespace tessera::cl::api
