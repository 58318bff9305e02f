#include "ratings/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace foundry::ratings {
namespace {

// Glicko-2's scale factor between the Glicko scale and its internal one.
constexpr double kScale = 173.7178;
// Convergence tolerance of the volatility iteration (Glickman's epsilon).
constexpr double kEpsilon = 0.000001;

double G(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double E(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-G(phi_j) * (mu - mu_j)));
}

// Step 5: the new volatility by the Illinois algorithm.
double NewVolatility(double sigma, double phi, double v, double delta, double tau) {
  const double a = std::log(sigma * sigma);
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / (tau * tau);
  };
  double A = a;
  double B;
  if (delta * delta > phi * phi + v) {
    B = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0 && k < 1000) ++k;
    B = a - k * tau;
  }
  double fA = f(A);
  double fB = f(B);
  for (int i = 0; i < 1000 && std::abs(B - A) > kEpsilon; ++i) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return std::exp(A / 2);
}

}  // namespace

Rating UpdateUnclamped(const Rating& before, const std::vector<Game>& games, double tau) {
  const double mu = (before.rating - 1500) / kScale;
  const double phi = before.deviation / kScale;
  if (games.empty()) {
    Rating out = before;
    out.deviation = std::sqrt(phi * phi + before.volatility * before.volatility) * kScale;
    return out;
  }
  double inv_v = 0;
  double sum = 0;
  for (const Game& g : games) {
    const double mu_j = (g.opponent.rating - 1500) / kScale;
    const double phi_j = g.opponent.deviation / kScale;
    const double e = E(mu, mu_j, phi_j);
    inv_v += G(phi_j) * G(phi_j) * e * (1 - e);
    sum += G(phi_j) * (g.score - e);
  }
  const double v = 1.0 / inv_v;
  const double delta = v * sum;
  const double sigma = NewVolatility(before.volatility, phi, v, delta, tau);
  const double phi_star = std::sqrt(phi * phi + sigma * sigma);
  const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double mu_new = mu + phi_new * phi_new * sum;
  return Rating{mu_new * kScale + 1500, phi_new * kScale, sigma};
}

Rating Update(const Rating& before, const std::vector<Game>& games, const Glicko2Config& config) {
  Rating out = UpdateUnclamped(before, games, config.tau);
  out.deviation = std::clamp(out.deviation, config.min_deviation, config.max_deviation);
  out.rating =
      std::clamp(out.rating, before.rating - config.max_change, before.rating + config.max_change);
  // A rating that is not a number would poison every later update and the
  // index it is stored in; keep the old one instead.
  if (!std::isfinite(out.rating) || !std::isfinite(out.deviation) ||
      !std::isfinite(out.volatility)) {
    return before;
  }
  return out;
}

double ExpectedScore(const Rating& a, const Rating& b) {
  return E((a.rating - 1500) / kScale, (b.rating - 1500) / kScale, b.deviation / kScale);
}

}  // namespace foundry::ratings
