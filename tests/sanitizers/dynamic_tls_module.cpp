// A library with general-dynamic TLS, for lsan_dynamic_tls.cpp: loaded with dlopen, its TLS block
// is allocated with malloc by glibc's __tls_get_addr on each thread's first access.
extern "C" __attribute__((visibility("default"))) void** tesseraDynamicTlsSlot() {
  static thread_local void* slot = nullptr;
  return &slot;
}
