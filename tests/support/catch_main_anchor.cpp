// Gives every test executable at least one source of its own, so a layer whose tests are being
// written still configures. The main() comes from catch_main.cpp.
