// CL_KERNEL_ATTRIBUTES: "Returns any attributes specified using the __attribute__ OpenCL C
// qualifier
// ... with the kernel function declaration in the program source", as they were declared. The
// module's reflection gives the values (reqd_work_group_size, work_group_size_hint, vec_type_hint),
// but SPIR-V's VecTypeHint has no signedness: vec_type_hint(uchar2) comes back as char2. The
// program source, when there is one, gives the spelling back.
#pragma once

#include <string>
#include <vector>

namespace tessera::cl {

// The type named by vec_type_hint(T) (or by __kernel_exec(X, T) / kernel_exec(X, T)) in the
// declaration of kernel `kernel` in one of `sources`; empty when no source declares it so (the
// attribute may come from a macro, or the kernel has none).
std::string sourceVecTypeHint(const std::vector<std::string>& sources, const std::string& kernel);

// `attributes` (the module's text, e.g. "reqd_work_group_size(1,1,1) vec_type_hint(char2)") with
// the vec_type_hint type replaced by the source's spelling when the source names the same type up
// to signedness (uchar2 for char2).
std::string withSourceSpelling(const std::string& attributes,
                               const std::vector<std::string>& sources, const std::string& kernel);

}  // namespace tessera::cl
