// The instruction stream of a SPIR-V module, one instruction at a time: the walk that every reader
// of words shares (reflect, validate, repair, legalize, translator_guard). SPIR-V 2.3 "Physical
// Layout of a SPIR-V Module and Instruction": "The first word of each instruction ... high-order
// 16 bits: Word Count ... The total number of words this instruction takes", low-order 16 bits the
// opcode; the header is 5 words.
//
// A walk stops at the end of the words or at the first malformed instruction: a word count of 0, or
// one that runs past the end. malformed() tells which happened, so that a reader that must refuse
// such a module can, and one that leaves it to validation simply stops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace tessera::spirv {

inline constexpr size_t kHeaderWords = 5;

// One instruction: `words` holds its whole word count, opcode word first.
struct Instruction {
  size_t offset = 0;  // the opcode word's index in the module
  std::span<const uint32_t> words;

  uint32_t opcode() const { return words[0] & 0xffffu; }
  uint32_t wordCount() const { return static_cast<uint32_t>(words.size()); }
  // Word `i` (0 is the opcode word); the caller checks i < wordCount().
  uint32_t operator[](size_t i) const { return words[i]; }
};

// Where a walk stopped early: the instruction at `offset` claims `wordCount` words (0, or more
// than remain).
struct Malformed {
  size_t offset = 0;
  uint32_t wordCount = 0;
};

// A range over the instructions of `module` (host word order) from word `first` on:
//   for (const Instruction& inst : Instructions(words)) ...
class Instructions {
 public:
  explicit Instructions(std::span<const uint32_t> module, size_t first = kHeaderWords)
      : words_(module), first_(first) {}

  class Iterator {
   public:
    Iterator(std::span<const uint32_t> words, size_t at) : words_(words) { load(at); }
    const Instruction& operator*() const { return current_; }
    const Instruction* operator->() const { return &current_; }
    Iterator& operator++() {
      load(current_.offset + current_.words.size());
      return *this;
    }
    bool operator==(const Iterator& other) const {
      return atEnd() == other.atEnd() && (atEnd() || current_.offset == other.current_.offset);
    }
    bool operator!=(const Iterator& other) const { return !(*this == other); }

   private:
    bool atEnd() const { return current_.words.empty(); }
    // The instruction at `at`, or the end (an empty one) when there is none or it is malformed.
    void load(size_t at) {
      current_ = {at, {}};
      if (at >= words_.size()) return;
      uint32_t count = words_[at] >> 16;
      if (count == 0 || count > words_.size() - at) return;
      current_.words = words_.subspan(at, count);
    }
    std::span<const uint32_t> words_;
    Instruction current_;
  };

  Iterator begin() const { return Iterator(words_, first_); }
  Iterator end() const { return Iterator(words_, words_.size()); }

  // The first malformed instruction, if the walk does not reach the end of the words.
  std::optional<Malformed> malformed() const {
    size_t at = first_;
    while (at < words_.size()) {
      uint32_t count = words_[at] >> 16;
      if (count == 0 || count > words_.size() - at) return Malformed{at, count};
      at += count;
    }
    return std::nullopt;
  }

 private:
  std::span<const uint32_t> words_;
  size_t first_;
};

}  // namespace tessera::spirv
