// The kinds of value an environment variable holds, each with the one rule that reads it. A row of
// settings.def names its variable and its kind; Variable<Kind> reads it. Every kind takes an unset
// or empty variable as its default; a value its rule does not accept is reported (one line for
// `warnings`, "NAME="value" is not ...; using DEFAULT") and the default is used.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::config {

// The default of any kind (Mask's has no member to hold it).
template <typename Kind>
typename Kind::Value fallbackOf(const Kind& kind) {
  if constexpr (requires { kind.fallback(); })
    return kind.fallback();
  else
    return typename Kind::Value(kind.fallback);
}

// A variable of the table: its name and kind.
template <typename Kind>
struct Variable {
  using Value = typename Kind::Value;
  const char* name;
  Kind kind;

  // Reads `raw` (the variable's value; null when unset) by the kind's rule.
  Value read(const char* raw, std::vector<std::string>& warnings) const {
    if (raw == nullptr || *raw == '\0') return fallbackOf(kind);
    Value v = fallbackOf(kind);
    std::string why;
    bool ok = kind.parse(raw, v, why);
    if (!why.empty()) warnings.push_back(std::string(name) + why);
    return ok ? v : fallbackOf(kind);
  }
  Value fromEnvironment(std::vector<std::string>& warnings) const {
    return read(std::getenv(name), warnings);
  }
  Value fallback() const { return fallbackOf(kind); }
  std::string defaultText() const { return kind.show(fallbackOf(kind)); }
  std::string rule() const { return kind.rule(); }
};

// On or off: `0` is off and `1` on. A value other than those means `other`, with a warning that
// says so: on for a switch (only `0` turns it off), off for an opt-in (only `1` turns it on).
struct Switch {
  using Value = bool;
  bool fallback = true;
  bool other = true;
  bool parse(std::string_view text, Value& out, std::string& why) const;
  std::string show(Value v) const { return v ? "1" : "0"; }
  std::string rule() const;
};

// A whole number written in decimal digits only (no sign, no spaces), from min to max.
struct Count {
  using Value = uint64_t;
  uint64_t fallback = 0;
  uint64_t min = 0;
  uint64_t max = UINT64_MAX;
  bool parse(std::string_view text, Value& out, std::string& why) const;
  std::string show(Value v) const { return std::to_string(v); }
  std::string rule() const;
};

// A finite number as strtod reads it whole (fractions, exponents), from min to max.
struct Real {
  using Value = double;
  double fallback = 0;
  double min = 0;
  double max = 0;
  bool parse(std::string_view text, Value& out, std::string& why) const;
  std::string show(Value v) const;
  std::string rule() const;
};

// Any text (a path, a description); empty is unset.
struct Text {
  using Value = std::string;
  const char* fallback = "";
  bool parse(std::string_view text, Value& out, std::string& why) const;
  std::string show(const Value& v) const { return v; }
  std::string rule() const { return "any text"; }
};

// One word of a list, in any case, spaces around it ignored; a blank value is unset. The words are
// the enum's, in its order: choiceWords(E) (found by argument-dependent lookup) lists them.
bool parseChoice(std::string_view text, std::span<const char* const> words, size_t& index,
                 std::string& why);
std::string choiceRule(std::span<const char* const> words);

template <typename E>
struct Choice {
  using Value = E;
  E fallback{};
  bool parse(std::string_view text, Value& out, std::string& why) const {
    size_t i = 0;
    if (!parseChoice(text, choiceWords(E{}), i, why)) return false;
    out = static_cast<E>(i);
    return true;
  }
  std::string show(Value v) const { return choiceWords(E{})[static_cast<size_t>(v)]; }
  std::string rule() const { return choiceRule(choiceWords(E{})); }
};

// Level Zero's ZE_AFFINITY_MASK: comma-separated paths of dotted ordinals ("0,1.2" is {0}, {1, 2}),
// spaces around entries ignored; a blank value is no mask. A malformed mask is ignored as a whole.
struct AffinityMask {
  std::vector<std::vector<uint32_t>> entries;
};
struct Mask {
  using Value = std::optional<AffinityMask>;
  Value fallback() const { return std::nullopt; }
  bool parse(std::string_view text, Value& out, std::string& why) const;
  std::string show(const Value&) const { return ""; }
  std::string rule() const { return "comma-separated dotted ordinals (`0,1.2`)"; }
};

// Work-items a widened kernel region runs at once: 0 (no widening), 1 (the host's own plan) or a
// power of two up to 64 (that many, forced), in decimal digits.
struct Width {
  using Value = uint32_t;
  uint32_t fallback = 1;
  bool parse(std::string_view text, Value& out, std::string& why) const;
  std::string show(Value v) const { return std::to_string(v); }
  std::string rule() const { return "`0`, `1` or a power of two up to 64"; }
};

}  // namespace tessera::config
