// The JavaScript binding's shared part (cpp/binding/binding.cpp), for the adapters of each room:
// attention.cpp, lesson.cpp, experiment.cpp, model.cpp, supplied_attention.cpp. An adapter is plain: it finds
// its input arrays in the input slots (placed there by web/core/engine.js, with their lengths),
// converts the JavaScript numbers it is given, validates through the core, then declares its
// outputs by name and length (cpp/core/boundary.hpp) and lets the core write them. The engine builds
// the result object from the published descriptor. No C++ exception crosses into JavaScript:
// every adapter returns a Status code, and the message of the last failure is read with lastError().
//
// Order within every adapter: checks (shapes, lengths, values) → outputs reserved → computed. A
// call that fails its checks reserves no memory, so the heap does not grow from it.
//
// A new call is one adapter here and one row of the engine's table of calls (CALLS in
// web/core/calls.js): the row names the adapter, its input arrays in slot order and its other
// arguments in the adapter's order, with their types and defaults (docs/architecture.md §1).
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <exception>
#include <new>

#include "core/attention.hpp"
#include "core/boundary.hpp"
#include "core/check.hpp"

namespace binding {

using attn::Status;

// single-threaded module: one of each is enough (binding.cpp)
extern attn::Error g_error;
extern attn::Block g_output_block;
extern attn::Descriptor g_descriptor;

inline int status(bool ok) { return ok ? 0 : static_cast<int>(g_error.status); }
inline int failed() { return static_cast<int>(g_error.status); }

// Input `slot` of the call as the engine placed it; not given (null) when the engine wrote a
// negative length. Slots are numbered in the order of the engine's row for the call.
attn::Input input(int slot);

inline attn::Outputs outputs() { return attn::Outputs(g_output_block, g_descriptor); }

// Input 0 as a row of scores and a JavaScript number as its float32 temperature, checked in that
// order: the arguments of softmax and of the lesson's naive softmax.
struct ScoreRow {
  attn::Input scores;
  int m = 0;
  float temperature = 0.0f;
};
inline bool score_row(double temperature, ScoreRow* row) {
  row->scores = input(0);
  return attn::check_row_length("scores", row->scores, attn::kMaxDim, &row->m, &g_error) &&
         attn::to_float32("temperature", temperature, &row->temperature, &g_error);
}

// For adapters whose core functions allocate scratch: the exception stops here.
template <typename Body>
int guarded(Body body) {
  try {
    return status(body());
  } catch (const std::bad_alloc&) {
    attn::fail(&g_error, Status::too_large, "the scratch memory of this call could not be reserved (out of memory)");
  } catch (const std::exception& e) {
    attn::fail(&g_error, Status::internal_error, "internal error: %s", e.what());
  } catch (...) {
    attn::fail(&g_error, Status::internal_error, "internal error: unknown exception");
  }
  return failed();
}

// A field of an options object (a cold call with many arguments takes one object: the engine has
// checked each field's type, and the core checks its range and value).
inline double number_of(const emscripten::val& options, const char* name) { return options[name].as<double>(); }
inline int int_of(const emscripten::val& options, const char* name) { return options[name].as<int>(); }

}  // namespace binding
