// MetricsEndpoint: serves a Prometheus registry on /metrics over HTTP.
//
// Thread safety: construct and destroy from one thread; the registry it serves
// may be updated from any thread.
#pragma once

#include <memory>
#include <string>

#include <prometheus/registry.h>

#include "common/status.h"

namespace prometheus {
class Exposer;
}

namespace foundry {

class MetricsEndpoint {
 public:
  // Listens on `address` ("127.0.0.1:9100"; port 0 picks a free one) and
  // serves `registry`. Unavailable when the address cannot be bound.
  static Result<std::unique_ptr<MetricsEndpoint>> Start(
      const std::string& address, std::shared_ptr<prometheus::Registry> registry);
  ~MetricsEndpoint();

  // The port actually bound.
  int port() const { return port_; }

 private:
  MetricsEndpoint() = default;
  std::unique_ptr<prometheus::Exposer> exposer_;
  std::shared_ptr<prometheus::Registry> registry_;
  int port_ = 0;
};

}  // namespace foundry
