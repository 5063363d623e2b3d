// The functions clGetExtensionFunctionAddress(ForPlatform) returns, by name.
#pragma once

namespace tessera::cl {

// Null for a name Tessera does not implement.
void* extensionFunction(const char* name);

}  // namespace tessera::cl
