# tessera_opencl_to_spirv(<target> <out-dir> <file.cl>...)
# Compiles each OpenCL C file to <out-dir>/<name>.spv (clang-15 -> LLVM bitcode -> llvm-spirv-15,
# then spirv-val) and adds a target that builds them all. -cl-kernel-arg-info keeps argument names,
# which the translator writes as OpName of the entry points' parameters.
function(tessera_opencl_to_spirv target outdir)
  set(outputs)
  foreach(src ${ARGN})
    get_filename_component(name ${src} NAME_WE)
    get_filename_component(abs ${src} ABSOLUTE)
    set(bc ${outdir}/${name}.bc)
    set(spv ${outdir}/${name}.spv)
    add_custom_command(
      OUTPUT ${spv}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${outdir}
      COMMAND ${TESSERA_CLANG} -cl-std=CL2.0 -target spir64-unknown-unknown -O2 -cl-kernel-arg-info
              -emit-llvm -c ${abs} -o ${bc}
      COMMAND ${TESSERA_LLVM_SPIRV} ${bc} -o ${spv}
      COMMAND ${TESSERA_SPIRV_VAL} ${spv}
      DEPENDS ${abs}
      COMMENT "OpenCL C -> SPIR-V: ${name}.spv"
      VERBATIM)
    list(APPEND outputs ${spv})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${outputs})
endfunction()

# tessera_spirv_assemble(<target> <out-dir> <target-env> <file.spvasm>...)
# Assembles SPIR-V assembly (for what OpenCL C cannot express, such as specialization constants) to
# <out-dir>/<name>.spv with spirv-as for <target-env> (e.g. spv1.0), then checks it with spirv-val.
# With INVALID first among the files, spirv-val is not run: for modules that are invalid on purpose
# (what real producers get wrong, which spirv/repair.cpp repairs).
function(tessera_spirv_assemble target outdir env)
  set(outputs)
  set(files ${ARGN})
  set(check COMMAND ${TESSERA_SPIRV_VAL})
  if(files AND "${ARGV3}" STREQUAL "INVALID")
    list(REMOVE_AT files 0)
    set(check)
  endif()
  foreach(src ${files})
    get_filename_component(name ${src} NAME_WE)
    get_filename_component(abs ${src} ABSOLUTE)
    set(spv ${outdir}/${name}.spv)
    if(check)
      set(validate ${check} ${spv})
    else()
      set(validate)
    endif()
    add_custom_command(
      OUTPUT ${spv}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${outdir}
      COMMAND ${TESSERA_SPIRV_AS} --target-env ${env} ${abs} -o ${spv}
      ${validate}
      DEPENDS ${abs}
      COMMENT "SPIR-V assembly -> SPIR-V: ${name}.spv"
      VERBATIM)
    list(APPEND outputs ${spv})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${outputs})
endfunction()
