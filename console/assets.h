// The console's page and its assets (console/assets/), embedded in the
// binary at build time by embed_assets.cmake.
#pragma once

#include <string_view>

namespace foundry::console {

struct Asset {
  std::string_view path;          // "/app.js"
  std::string_view content_type;  // "text/javascript; charset=utf-8"
  std::string_view body;
};

// The asset served at `path` ("/" is "/index.html"), or null.
const Asset* FindAsset(std::string_view path);

}  // namespace foundry::console
