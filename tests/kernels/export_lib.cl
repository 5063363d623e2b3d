// Exports a function for dynamic linking (LinkageAttributes Export).
int tessera_scale(int x) { return 3 * x + 1; }
