#include "common/metrics_endpoint.h"

#include <prometheus/exposer.h>

#include "common/listen_address.h"

namespace foundry {

Result<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::Start(
    const std::string& address, std::shared_ptr<prometheus::Registry> registry) {
  // CivetWeb would take a bare port as every interface: HOST:PORT only.
  FOUNDRY_RETURN_IF_ERROR(CheckListenAddress("--metrics-listen", address));
  std::unique_ptr<MetricsEndpoint> ep(new MetricsEndpoint());
  try {
    ep->exposer_ = std::make_unique<prometheus::Exposer>(address);
  } catch (const std::exception& e) {
    return Status::Unavailable("cannot serve metrics on " + address + ": " + e.what());
  }
  ep->registry_ = std::move(registry);
  ep->exposer_->RegisterCollectable(ep->registry_);
  auto ports = ep->exposer_->GetListeningPorts();
  ep->port_ = ports.empty() ? 0 : ports.front();
  return ep;
}

MetricsEndpoint::~MetricsEndpoint() = default;

}  // namespace foundry
