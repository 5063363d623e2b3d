#include "cl_shim/program.h"
#include "spirv/opencl_options.h"

#include <algorithm>
#include <cstring>

#include "cl_shim/api_support.h"
#include "cl_shim/device.h"
#include "cl_shim/errors.h"
#include "cl_shim/platform.h"
#include "cl_shim/program_binary.h"
#include "spirv/clc/translate.h"
#include "spirv/ir_reflect.h"
#include "spirv/kernel_table.h"
#include "spirv/link.h"

namespace tessera::cl {
namespace {

std::string logText(ze_module_build_log_handle_t log) {
  if (!log) return {};
  size_t size = 0;
  std::string text;
  if (zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS && size > 0) {
    text.assign(size, '\0');
    if (zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS) text.clear();
  }
  zeModuleBuildLogDestroy(log);
  return std::string(text.c_str());
}

// Whether build options name -cl-uniform-work-group-size (a program from IL, a binary or a link;
// sources have it from the front end's parse, CompileResult::uniformGroups).
bool uniformGroupsOption(const std::string& options) {
  std::string error;
  for (const std::string& w : spirv::tokenizeOptions(options, error))
    if (w == "-cl-uniform-work-group-size") return true;
  return false;
}

}  // namespace

void appendLog(std::string& log, const std::string& more) {
  if (more.empty()) return;
  if (!log.empty() && log.back() != '\n') log += '\n';
  log += more;
}

Program::Unit makeUnit(std::vector<uint8_t> module, std::string* error) {
  Program::Unit u;
  u.module = std::move(module);
  u.ir = spirv::isTesseraIR(u.module);
  if (u.ir) return u;
  spirv::ReflectResult r = spirv::reflect(u.module);
  u.reflected = r.ok;
  if (r.ok)
    u.info = std::move(r.module);
  else if (error)
    *error = "SPIR-V reflection failed: " + r.error;
  return u;
}

Program* Program::createWithIL(Context& context, const void* il, size_t length, cl_int& err) {
  // "CL_INVALID_VALUE if il is NULL or if length is zero." ... "if the length-byte memory pointed
  // to by il does not contain well-formed intermediate language input": what is not SPIR-V at all
  // (size, magic) is refused here; whether the module is valid is found at build, with a log.
  if (!il || length == 0) { err = CL_INVALID_VALUE; return nullptr; }
  std::span<const uint8_t> bytes(static_cast<const uint8_t*>(il), length);
  if (spirv::toWords(bytes).size() < 5) { err = CL_INVALID_VALUE; return nullptr; }
  auto* p = new Program;
  p->context_ = Ref<Context>(&context);
  p->origin_ = Origin::IL;
  for (const auto& d : context.devices()) p->baseDevices_.push_back(d.get());
  p->il_.assign(bytes.begin(), bytes.end());
  p->units_.push_back(makeUnit(p->il_, nullptr));
  err = CL_SUCCESS;
  return p;
}

Program* Program::createWithSource(Context& context, std::string source) {
  auto* p = new Program;
  p->context_ = Ref<Context>(&context);
  p->origin_ = Origin::Source;
  for (const auto& d : context.devices()) p->baseDevices_.push_back(d.get());
  p->source_ = std::move(source);
  return p;
}

Program* Program::createWithBinary(Context& context, const std::vector<Device*>& devices,
                                   const size_t* lengths, const unsigned char** binaries,
                                   cl_int* binaryStatus, cl_int& err) {
  std::vector<std::pair<Device*, DeviceBuild>> builds;
  std::vector<uint8_t> il;
  // Binaries of units, SPIR-V or Tessera IR (program_binary.h): the same for every device, since a program has
  // one set of units; a native binary next to them is refused (one program, one kind).
  std::optional<ObjectBinary> object;
  std::vector<Device*> objectDevices;
  err = CL_SUCCESS;
  const ZeExtensions& ext = devices.front()->platform().ext();
  for (size_t i = 0; i < devices.size(); ++i) {
    cl_int status = CL_SUCCESS;
    // "CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in lengths[i] is zero or
    // binaries[i] is NULL."
    if (!lengths || !binaries || lengths[i] == 0 || !binaries[i]) {
      status = CL_INVALID_VALUE;
    } else if (looksLikeObjectBinary({binaries[i], lengths[i]})) {
      std::optional<ObjectBinary> ob = decodeObjectBinary({binaries[i], lengths[i]});
      bool consistent = ob && builds.empty() &&
                        (!object || (ob->type == object->type && ob->units == object->units));
      if (!consistent) {
        status = CL_INVALID_BINARY;
      } else {
        if (!object) object = std::move(ob);
        objectDevices.push_back(devices[i]);
      }
    } else if (object) {
      status = CL_INVALID_BINARY;
    } else {
      // A Tessera binary is zeModuleGetNativeBinary's: zeModuleCreate(FORMAT_NATIVE) reloads it
      // without compiling, and refuses (INVALID_NATIVE_BINARY) anything else.
      ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
      desc.format = ZE_MODULE_FORMAT_NATIVE;
      desc.inputSize = lengths[i];
      desc.pInputModule = binaries[i];
      desc.pBuildFlags = "";
      ze_module_handle_t m = nullptr;
      ze_module_build_log_handle_t log = nullptr;
      ze_result_t r = zeModuleCreate(context.ze(), devices[i]->ze(), &desc, &m, &log);
      std::string text = logText(log);
      if (r != ZE_RESULT_SUCCESS) {
        status = r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ? CL_OUT_OF_HOST_MEMORY : CL_INVALID_BINARY;
      } else {
        DeviceBuild b;
        b.binaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
        b.log = text;
        b.modules.push_back(std::make_shared<ZeModule>(m));
        if (il.empty() && ext.moduleIL) {
          size_t n = 0;
          if (ext.moduleIL(m, &n, nullptr) == ZE_RESULT_SUCCESS && n) {
            il.resize(n);
            if (ext.moduleIL(m, &n, il.data()) != ZE_RESULT_SUCCESS) il.clear();
          }
        }
        builds.emplace_back(devices[i], std::move(b));
      }
    }
    if (binaryStatus) binaryStatus[i] = status;
    if (status != CL_SUCCESS && err == CL_SUCCESS) err = status;
  }
  auto refuseAll = [&] {
    if (binaryStatus)
      for (size_t i = 0; i < devices.size(); ++i) binaryStatus[i] = CL_INVALID_BINARY;
    err = CL_INVALID_BINARY;
    return nullptr;
  };
  if (err != CL_SUCCESS) return nullptr;
  std::vector<Unit> units;
  std::vector<std::vector<uint8_t>> spirvUnits;
  if (object)
    spirvUnits = std::move(object->units);
  else
    spirvUnits.push_back(std::move(il));
  for (std::vector<uint8_t>& bytes : spirvUnits) {
    std::string reflectError;
    units.push_back(makeUnit(std::move(bytes), &reflectError));
    if (!reflectError.empty()) return refuseAll();
    // An object's Tessera IR is read and verified in the compiler process (the application never
    // parses bitcode it did not make): what does not read is "an invalid program binary".
    if (object && units.back().ir && !spirv::checkTesseraIR(units.back().module, nullptr).empty())
      return refuseAll();
  }
  auto* p = new Program;
  p->context_ = Ref<Context>(&context);
  p->origin_ = Origin::Binary;
  p->baseDevices_ = devices;
  for (Device* d : devices) p->deviceRefs_.emplace_back(d);
  p->units_ = std::move(units);
  p->builds_ = std::move(builds);
  // A native binary's Tessera IR: its kernels are the loaded module's.
  if (!p->builds_.empty() && !p->adoptKernelTables(p->builds_.front().second.modules)) {
    p->releaseApi();
    return refuseAll();
  }
  if (object) {
    // An executable of several units is made again from its SPIR-V, as clLinkProgram made it.
    for (Device* d : objectDevices) {
      DeviceBuild b;
      b.binaryType = object->type;
      b.options = object->options;
      if (object->type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE &&
          p->makeModules(*d, spirv::moduleFlagsOf(b.options), b.modules, b.log) != CL_SUCCESS) {
        p->releaseApi();
        return refuseAll();
      }
      p->builds_.emplace_back(d, std::move(b));
    }
  }
  return p;
}

bool Program::knowsDevice(const Device* d) const {
  // cl_ext_device_fission, 5.4.2: "CL_INVALID_DEVICE if the device or one of its ancestors was not
  // used to create the program's context ... CL_INVALID_DEVICE if the device was not used to
  // create the program and the program was created with clCreateProgramWithBinary."
  if (origin_ == Origin::Binary)
    return std::find(baseDevices_.begin(), baseDevices_.end(), d) != baseDevices_.end();
  return context_->allows(d);
}

Program::DeviceBuild* Program::recordFor(const Device& d) {
  for (auto& [dev, b] : builds_)
    if (dev == &d) return &b;
  return nullptr;
}

std::vector<Device*> Program::programDevicesLocked() const {
  // cl_ext_device_fission, 5.4.5: "the union of the set of devices used to create the cl_context
  // [or the program, for binaries] ... and the set of devices for which clBuildProgram() has
  // succeeded on this program."
  std::vector<Device*> out = baseDevices_;
  for (const auto& [dev, b] : builds_)
    if (b.status == CL_BUILD_SUCCESS && std::find(out.begin(), out.end(), dev) == out.end())
      out.push_back(dev);
  return out;
}

cl_int Program::makeModules(Device& d, const std::string& flags, std::vector<ZeModulePtr>& out,
                            std::string& log) {
  bool imports = false;
  for (const Unit& u : units_) {
    // Specialization constants (clSetProgramSpecializationConstant) go to the units that have them.
    std::vector<uint32_t> ids;
    std::vector<const void*> values;
    for (const auto& [id, bytes] : specConstants_)
      if (u.info.findSpecConstant(id)) {
        ids.push_back(id);
        values.push_back(bytes.data());
      }
    ze_module_constants_t constants{uint32_t(ids.size()), ids.data(), values.data()};
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = u.ir ? TESSERA_ZE_MODULE_FORMAT_LLVM_IR : ZE_MODULE_FORMAT_IL_SPIRV;
    desc.inputSize = u.module.size();
    desc.pInputModule = u.module.data();
    desc.pBuildFlags = flags.c_str();
    desc.pConstants = ids.empty() ? nullptr : &constants;
    ze_module_handle_t m = nullptr;
    ze_module_build_log_handle_t zlog = nullptr;
    ze_result_t r = zeModuleCreate(context_->ze(), d.ze(), &desc, &m, &zlog);
    appendLog(log, logText(zlog));
    if (r != ZE_RESULT_SUCCESS) {
      if (r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY) return CL_OUT_OF_HOST_MEMORY;
      if (log.empty()) appendLog(log, "zeModuleCreate failed (ze_result_t " + std::to_string(r) + ")");
      return CL_BUILD_PROGRAM_FAILURE;
    }
    out.push_back(std::make_shared<ZeModule>(m));
    ze_module_properties_t props{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
    if (zeModuleGetProperties(m, &props) == ZE_RESULT_SUCCESS &&
        (props.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS))
      imports = true;
  }
  // Imports are resolved against the other units' exports; an import nobody exports fails with a
  // log line naming it.
  if (imports) {
    std::vector<ze_module_handle_t> handles;
    for (auto& m : out) handles.push_back(m->handle);
    ze_module_build_log_handle_t zlog = nullptr;
    ze_result_t r = zeModuleDynamicLink(uint32_t(handles.size()), handles.data(), &zlog);
    appendLog(log, logText(zlog));
    if (r != ZE_RESULT_SUCCESS) {
      if (log.empty()) appendLog(log, "zeModuleDynamicLink failed (ze_result_t " + std::to_string(r) + ")");
      return CL_LINK_PROGRAM_FAILURE;
    }
  }
  return CL_SUCCESS;
}

bool Program::adoptKernelTables(const std::vector<ZeModulePtr>& modules) {
  const ZeExtensions& ext = context_->devices().front()->platform().ext();
  for (size_t i = 0; i < units_.size() && i < modules.size(); ++i) {
    Unit& u = units_[i];
    if (u.reflected) continue;
    size_t size = 0;
    std::vector<uint8_t> table;
    if (ext.kernelTable(modules[i]->handle, &size, nullptr) == ZE_RESULT_SUCCESS) {
      table.resize(size);
      if (ext.kernelTable(modules[i]->handle, &size, table.data()) != ZE_RESULT_SUCCESS)
        table.clear();
    }
    u.reflected = !table.empty() && spirv::readKernelTable(table, u.info);
    if (!u.reflected) return false;
  }
  return true;
}

cl_int Program::build(const std::vector<Device*>& devices, const std::string& options) {
  std::lock_guard lock(mutex_);
  // zeModuleCreate's flags: from the front end's parse of the options for source, else read from
  // the options once here.
  std::string flags;
  if (origin_ == Origin::Source) {
    // Tessera IR: clang's LLVM IR reaches the driver's code generator without SPIR-V
    // (spirv/friendly_ir.h); SPIR-V is made only for clCompileProgram's objects (and with
    // TESSERA_CL_BUILD_IR=0, to compare the two front ends).
    const bool ir = baseDevices_.front()->platform().settings().buildIR;
    CompileResult c = compileSource(
        source_, options, {}, ir ? spirv::CompileOutput::TesseraIR : spirv::CompileOutput::Spirv);
    if (c.error != CL_SUCCESS) {
      for (Device* d : devices) {
        DeviceBuild* b = recordFor(*d);
        if (!b) b = &builds_.emplace_back(d, DeviceBuild{}).second;
        *b = DeviceBuild{};
        b->status = CL_BUILD_ERROR;
        b->options = options;
        b->log = c.log;
      }
      return c.error == CL_INVALID_BUILD_OPTIONS ? c.error : CL_BUILD_PROGRAM_FAILURE;
    }
    units_.clear();
    std::string error;
    units_.push_back(makeUnit(std::move(c.module), &error));
    units_.back().sources = {source_};
    units_.back().argInfo = c.argInfo;
    units_.back().uniformGroups = c.uniformGroups;
    flags = std::move(c.moduleFlags);
  } else {
    if (origin_ != Origin::Binary) flags = spirv::moduleFlagsOf(options);
    // IL and binaries: -cl-uniform-work-group-size given to this build (a binary does not keep
    // the OpenCL C version it was compiled from); a linked program keeps its inputs' requirement.
    const bool uniform = uniformGroupsOption(options);
    for (Unit& u : units_)
      u.uniformGroups = uniform || (origin_ == Origin::Linked && u.uniformGroups);
  }
  cl_int result = CL_SUCCESS;
  for (Device* d : devices) {
    DeviceBuild* b = recordFor(*d);
    if (origin_ == Origin::Binary) {
      // "CL_INVALID_BINARY if program is created with clCreateProgramWithBinary and devices
      // listed in device_list do not have a valid program binary loaded." The binary is already
      // code: building it compiles nothing.
      if (!b || b->modules.empty()) return CL_INVALID_BINARY;
      b->status = CL_BUILD_SUCCESS;
      b->options = options;
      continue;
    }
    DeviceBuild nb;
    nb.options = options;
    // "Implementations should eliminate redundant compilation where devices and sub-devices can
    // share a common binary": a sub-device takes its ancestor's modules built with the same
    // options.
    for (auto& [dev, ab] : builds_)
      if (dev != d && d->descendsFrom(dev) && ab.status == CL_BUILD_SUCCESS &&
          ab.binaryType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && ab.options == options &&
          !ab.modules.empty()) {
        nb.modules = ab.modules;
        nb.log = ab.log;
        break;
      }
    cl_int r = CL_SUCCESS;
    if (nb.modules.empty()) r = makeModules(*d, flags, nb.modules, nb.log);
    if (r == CL_SUCCESS) {
      adoptKernelTables(nb.modules);
      for (const Unit& u : units_)
        if (!u.reflected) {
          appendLog(nb.log, "the module could not be reflected");
          r = CL_BUILD_PROGRAM_FAILURE;
        }
    }
    if (r == CL_SUCCESS) {
      nb.status = CL_BUILD_SUCCESS;
      nb.binaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    } else {
      nb.status = CL_BUILD_ERROR;
      nb.modules.clear();
      if (r == CL_OUT_OF_HOST_MEMORY) return r;
      result = CL_BUILD_PROGRAM_FAILURE;
    }
    if (b)
      *b = std::move(nb);
    else
      builds_.emplace_back(d, std::move(nb));
    if (std::find(baseDevices_.begin(), baseDevices_.end(), d) == baseDevices_.end() &&
        std::none_of(deviceRefs_.begin(), deviceRefs_.end(), [&](auto& r) { return r.get() == d; }))
      deviceRefs_.emplace_back(d);
  }
  return result;
}

cl_int Program::compile(const std::vector<Device*>& devices, const std::string& options,
                        const std::vector<std::pair<std::string, std::string>>& headers) {
  std::lock_guard lock(mutex_);
  std::string log;
  cl_int result = CL_SUCCESS;
  if (origin_ == Origin::Source) {
    // The object is Tessera IR, as clBuildProgram's program is, and clLinkProgram links it as
    // LLVM IR (spirv/ir_link.h): no SPIR-V on the way from clang to the JIT.
    const bool ir = baseDevices_.front()->platform().settings().buildIR;
    CompileResult c = compileSource(source_, options, headers,
                                    ir ? spirv::CompileOutput::TesseraIR : spirv::CompileOutput::Spirv);
    log = c.log;
    if (c.error == CL_SUCCESS) {
      units_.clear();
      std::string error;
      units_.push_back(makeUnit(std::move(c.module), &error));
      units_.back().sources = {source_};
      units_.back().argInfo = c.argInfo;
      units_.back().uniformGroups = c.uniformGroups;
    } else {
      result = c.error == CL_INVALID_BUILD_OPTIONS ? CL_INVALID_COMPILER_OPTIONS
                                                   : CL_COMPILE_PROGRAM_FAILURE;
    }
  } else {
    // SPIR-V is already compiled: compiling keeps it, once reflection has read it.
    std::string error;
    Unit check = makeUnit(units_.front().module, &error);
    if (!error.empty()) {
      log = error;
      result = CL_COMPILE_PROGRAM_FAILURE;
    }
  }
  for (Device* d : devices) {
    DeviceBuild* b = recordFor(*d);
    if (!b) b = &builds_.emplace_back(d, DeviceBuild{}).second;
    *b = DeviceBuild{};
    b->options = options;
    b->log = log;
    b->status = result == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    b->binaryType = result == CL_SUCCESS ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
                                         : CL_PROGRAM_BINARY_TYPE_NONE;
  }
  return result;
}

Program* Program::link(Context& context, const std::vector<Device*>& devices,
                       const std::string& options, const std::vector<Program*>& inputs,
                       cl_int& err) {
  // "CL_INVALID_LINKER_OPTIONS if the linker options specified by options are invalid."
  spirv::LinkOptions parsed = spirv::parseLinkOptions(options);
  if (!parsed.ok) {
    err = CL_INVALID_LINKER_OPTIONS;
    return nullptr;
  }
  auto* p = new Program;
  p->context_ = Ref<Context>(&context);
  p->origin_ = Origin::Linked;
  for (const auto& d : context.devices()) p->baseDevices_.push_back(d.get());
  // The inputs' units, linked (program_link.cpp).
  std::vector<Unit> units;
  for (Program* in : inputs) {
    std::lock_guard lock(in->mutex_);
    units.insert(units.end(), in->units_.begin(), in->units_.end());
  }
  LinkedUnits linked = linkUnits(std::move(units), parsed.createLibrary);
  p->units_ = std::move(linked.units);
  const std::string& linkLog = linked.log;
  std::string mathOptions;
  for (const std::string& o : parsed.mathOptions)
    mathOptions += (mathOptions.empty() ? "" : " ") + o;
  err = CL_SUCCESS;
  std::lock_guard lock(p->mutex_);
  for (Device* d : devices) {
    DeviceBuild b;
    b.options = options;
    b.log = linkLog;
    if (!linked.ok) {
      b.status = CL_BUILD_ERROR;
      err = CL_LINK_PROGRAM_FAILURE;
    } else if (parsed.createLibrary) {
      b.status = CL_BUILD_SUCCESS;
      b.binaryType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    } else {
      cl_int r = p->makeModules(*d, mathOptions, b.modules, b.log);
      // Tessera IR's kernels are known from its module (adoptKernelTables).
      if (r == CL_SUCCESS && !p->adoptKernelTables(b.modules)) {
        appendLog(b.log, "the module could not be reflected");
        r = CL_LINK_PROGRAM_FAILURE;
      }
      if (r == CL_SUCCESS) {
        b.status = CL_BUILD_SUCCESS;
        b.binaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
      } else {
        b.status = CL_BUILD_ERROR;
        b.modules.clear();
        err = r == CL_OUT_OF_HOST_MEMORY ? r : CL_LINK_PROGRAM_FAILURE;
      }
    }
    p->builds_.emplace_back(d, std::move(b));
    if (!d->isRoot()) p->deviceRefs_.emplace_back(d);
  }
  return p;
}

cl_int Program::setSpecializationConstant(cl_uint specId, size_t size, const void* value) {
  std::lock_guard lock(mutex_);
  // "CL_INVALID_PROGRAM if program is not a valid program object created from an intermediate
  // language (e.g. SPIR-V)."
  if (origin_ != Origin::IL) return CL_INVALID_PROGRAM;
  const spirv::SpecConstant* c = units_.front().info.findSpecConstant(specId);
  // "CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant identifier."
  if (!c) return CL_INVALID_SPEC_ID;
  // "CL_INVALID_VALUE if spec_size does not match the size of the specialization constant in the
  // module, or if spec_value is NULL."
  if (!value || size != c->size) return CL_INVALID_VALUE;
  auto* bytes = static_cast<const uint8_t*>(value);
  specConstants_[specId].assign(bytes, bytes + size);
  return CL_SUCCESS;
}

std::vector<ZeModulePtr> Program::modulesFor(const Device& d, Device** builtFor) {
  std::lock_guard lock(mutex_);
  Device* best = nullptr;
  const std::vector<ZeModulePtr>* mods = nullptr;
  int bestDepth = -1;
  for (auto& [dev, b] : builds_) {
    if (b.status != CL_BUILD_SUCCESS || b.binaryType != CL_PROGRAM_BINARY_TYPE_EXECUTABLE ||
        b.modules.empty() || !d.descendsFrom(dev))
      continue;
    int depth = 0;
    for (Device* x = dev; x; x = x->parent()) ++depth;
    if (depth > bestDepth) bestDepth = depth, best = dev, mods = &b.modules;
  }
  if (builtFor) *builtFor = best;
  return mods ? *mods : std::vector<ZeModulePtr>{};
}

std::vector<Device*> Program::executableDevices() {
  std::lock_guard lock(mutex_);
  std::vector<Device*> out;
  for (auto& [dev, b] : builds_)
    if (b.status == CL_BUILD_SUCCESS && b.binaryType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE &&
        !b.modules.empty())
      out.push_back(dev);
  return out;
}

ArgTypeInfo Program::argTypes(size_t unit, const spirv::KernelInfo& kernel) const {
  std::lock_guard lock(mutex_);
  if (unit >= units_.size()) return {};
  const Unit& u = units_[unit];
  return u.ir ? argTypeInfo(kernel) : argTypeInfo(u.module, kernel);
}

const spirv::KernelInfo* Program::findKernel(const std::string& name, size_t* unit) const {
  for (size_t i = 0; i < units_.size(); ++i)
    if (const spirv::KernelInfo* k = units_[i].info.findKernel(name)) {
      if (unit) *unit = i;
      return k;
    }
  return nullptr;
}

std::vector<std::pair<size_t, const spirv::KernelInfo*>> Program::kernels() const {
  std::vector<std::pair<size_t, const spirv::KernelInfo*>> out;
  for (size_t i = 0; i < units_.size(); ++i)
    for (const auto& k : units_[i].info.kernels) out.emplace_back(i, &k);
  return out;
}

cl_int Program::info(cl_program_info param, size_t size, void* value, size_t* sizeRet) {
  InfoWriter out(size, value, sizeRet);
  std::unique_lock lock(mutex_);
  auto binaryOf = [&](Device* d) -> std::vector<uint8_t> {
    DeviceBuild* b = recordFor(*d);
    if (!b) return {};
    // A compiled object, a library or an executable of several modules: the units, SPIR-V or
    // Tessera IR (program_binary.h); an executable of one module: its native binary.
    bool units = b->binaryType == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
                 b->binaryType == CL_PROGRAM_BINARY_TYPE_LIBRARY ||
                 (b->binaryType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && b->modules.size() > 1);
    if (units && !units_.empty()) {
      ObjectBinary ob{b->binaryType, b->options, {}};
      for (const Unit& u : units_) ob.units.push_back(u.module);
      return encodeObjectBinary(ob);
    }
    if (b->modules.size() != 1) return {};
    size_t n = 0;
    ze_module_handle_t m = b->modules.front()->handle;
    // As the module is: kernels not launched yet are not compiled for the binary (a program that
    // saves its binary after building, as darktable does, would wait for every kernel); a
    // program made from it compiles them when first needed, from the IR the binary carries.
    auto binary = context_->devices().front()->platform().ext().nativeBinaryAsIs;
    if (!binary) binary = zeModuleGetNativeBinary;
    if (binary(m, &n, nullptr) != ZE_RESULT_SUCCESS) return {};
    std::vector<uint8_t> bytes(n);
    if (binary(m, &n, bytes.data()) != ZE_RESULT_SUCCESS) return {};
    bytes.resize(n);
    return bytes;
  };
  bool executable = false;
  for (auto& [dev, b] : builds_)
    executable |= b.status == CL_BUILD_SUCCESS && b.binaryType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT: return out.scalar<cl_uint>(apiRefs());
    case CL_PROGRAM_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_PROGRAM_NUM_DEVICES: return out.scalar<cl_uint>(cl_uint(programDevicesLocked().size()));
    case CL_PROGRAM_DEVICES: {
      std::vector<cl_device_id> ids;
      for (Device* d : programDevicesLocked()) ids.push_back(d->handle());
      return out.array(ids);
    }
    case CL_PROGRAM_SOURCE:
      // "If program is created using clCreateProgramWithIL, clCreateProgramWithBinary ... a null
      // string or an empty string may be returned."
      return out.string(source_);
    case CL_PROGRAM_IL:
      // "If program is created with clCreateProgramWithSource, clCreateProgramWithBinary or
      // clCreateProgramWithBuiltInKernels the memory pointed to by param_value will be unchanged
      // and param_value_size_ret will be set to 0."
      if (origin_ != Origin::IL) {
        if (sizeRet) *sizeRet = 0;
        return CL_SUCCESS;
      }
      return out.array(il_);
    case CL_PROGRAM_BINARY_SIZES: {
      std::vector<size_t> sizes;
      for (Device* d : programDevicesLocked()) sizes.push_back(binaryOf(d).size());
      return out.array(sizes);
    }
    case CL_PROGRAM_BINARIES: {
      // "param_value points to an array of n pointers allocated by the caller ... If an entry
      // value in the array is NULL, the implementation skips copying the program binary".
      std::vector<Device*> devs = programDevicesLocked();
      size_t need = devs.size() * sizeof(unsigned char*);
      if (sizeRet) *sizeRet = need;
      if (!value) return CL_SUCCESS;
      if (size < need) return CL_INVALID_VALUE;
      auto** dst = static_cast<unsigned char**>(value);
      for (size_t i = 0; i < devs.size(); ++i)
        if (dst[i]) {
          std::vector<uint8_t> bytes = binaryOf(devs[i]);
          if (!bytes.empty()) std::memcpy(dst[i], bytes.data(), bytes.size());
        }
      return CL_SUCCESS;
    }
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES: {
      // "CL_INVALID_PROGRAM_EXECUTABLE if param_name is CL_PROGRAM_NUM_KERNELS or
      // CL_PROGRAM_KERNEL_NAMES and a successful program executable has not been built for at
      // least one device in the list of devices associated with program."
      if (!executable) return CL_INVALID_PROGRAM_EXECUTABLE;
      auto ks = kernels();
      if (param == CL_PROGRAM_NUM_KERNELS) return out.scalar<size_t>(ks.size());
      std::string names;
      for (auto& [u, k] : ks) names += (names.empty() ? "" : ";") + k->name;
      return out.string(names);
    }
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
      return out.scalar<cl_bool>(CL_FALSE);
    default: return CL_INVALID_VALUE;
  }
}

cl_int Program::buildInfo(Device& device, cl_program_build_info param, size_t size, void* value,
                          size_t* sizeRet) {
  InfoWriter out(size, value, sizeRet);
  std::lock_guard lock(mutex_);
  // A device's own record, else the nearest ancestor's (whose modules it runs).
  const DeviceBuild* b = recordFor(device);
  for (Device* a = device.parent(); !b && a; a = a->parent()) b = recordFor(*a);
  static const DeviceBuild none;
  if (!b) b = &none;
  switch (param) {
    case CL_PROGRAM_BUILD_STATUS: return out.scalar<cl_build_status>(b->status);
    case CL_PROGRAM_BUILD_OPTIONS: return out.string(b->options);
    case CL_PROGRAM_BUILD_LOG: return out.string(b->log);
    case CL_PROGRAM_BINARY_TYPE: return out.scalar<cl_program_binary_type>(b->binaryType);
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
      // "The total amount of storage, in bytes, used by program variables in the global address
      // space": the units' own module-scope CrossWorkgroup variables, once there is an executable.
      size_t total = 0;
      if (b->binaryType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
        for (const Unit& u : units_)
          for (const auto& v : u.info.globalVariables) total += v.size;
      }
      return out.scalar<size_t>(total);
    }
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace tessera::cl

namespace tessera::cl {

void Program::compileAllKernels() {
  for (Device* d : executableDevices()) {
    auto build = d->platform().ext().buildKernels;
    if (!build) return;
    for (const ZeModulePtr& m : modulesFor(*d)) build(m->handle, 0, nullptr, nullptr);
  }
}

void Program::noteKernelFailure(const Device& d, ze_module_handle_t module,
                                const std::string& name) {
  auto build = d.platform().ext().buildKernels;
  if (!build) return;
  const char* names[] = {name.c_str()};
  ze_module_build_log_handle_t zlog = nullptr;
  build(module, 1, names, &zlog);
  std::string text = logText(zlog);
  Device* builtFor = nullptr;
  modulesFor(d, &builtFor);
  std::lock_guard lock(mutex_);
  if (DeviceBuild* b = builtFor ? recordFor(*builtFor) : nullptr)
    if (b->log.find(text) == std::string::npos) appendLog(b->log, text);
}

}  // namespace tessera::cl
