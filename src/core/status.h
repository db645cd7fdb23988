// Result of a core call: empty message = success. The core never throws and never aborts, so the
// WebAssembly build can report every failure to JavaScript as an ordinary Error.
#pragma once
#include <string>
#include <utility>

namespace attn {

struct Status {
  std::string message;

  bool ok() const { return message.empty(); }
  static Status success() { return {}; }
  static Status error(std::string text) { return Status{std::move(text)}; }
};

}  // namespace attn
