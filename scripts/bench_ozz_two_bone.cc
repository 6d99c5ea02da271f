// Side-by-side C++ counterpart of anglerpose's criterion bench `two_bone/arm`
// (benches/ik_two_bone.rs), using ozz-animation's IKTwoBoneJob.
//
// Chain: clavicle(0) -> upperarm(1) -> forearm(2) -> hand(3), job over 1,2,3.
// Per iteration ("ozz/arm_update"):
//   k = (k+1) & 63; IKTwoBoneJob{start,mid,end = models[1..3], target[k], pole,
//   mid_axis, weight 1, soften 1, twist 0}.Run();
//   locals[1].rotation *= start_correction; locals[2].rotation *= mid_correction;
//   models[1..3] = models[parent] * FromAffine(locals[i]).
// The pose carries over from one iteration to the next, like the Rust bench's
// `pose`. "ozz/run_only" times Run() alone on the fixed rest-pose matrices.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ozz/animation/runtime/ik_two_bone_job.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/simd_quaternion.h"

using namespace ozz::math;

namespace {

// ---- double-precision setup, mirroring the Rust (glam f64) bench ----------
struct D3 {
  double x, y, z;
};
struct DQ {
  double x, y, z, w;
};
D3 add(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 sub(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 cross(D3 a, D3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
D3 scale(D3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
DQ rot_x(double a) { return {std::sin(a / 2), 0, 0, std::cos(a / 2)}; }
DQ rot_z(double a) { return {0, 0, std::sin(a / 2), std::cos(a / 2)}; }
DQ ident() { return {0, 0, 0, 1}; }
D3 qrot(DQ q, D3 v) {  // v + 2w(u x v) + 2 u x (u x v)
  D3 u{q.x, q.y, q.z};
  D3 t = scale(cross(u, v), 2.0);
  return add(add(v, scale(t, q.w)), cross(u, t));
}

struct Rest {
  D3 t;
  DQ r;
};
// Transform::new(translation, rotation, scale = ONE)
const Rest kRest[4] = {
    {{0.1, 1.45, 0.0}, rot_z(-1.4)},  // clavicle
    {{0.0, 0.15, 0.0}, rot_x(0.2)},   // upperarm
    {{0.0, 0.325, 0.0}, rot_x(-0.6)}, // forearm
    {{0.0, 0.255, 0.0}, ident()},     // hand
};

// ---- ozz (float SIMD) state -----------------------------------------------
struct Local {
  SimdFloat4 translation;
  SimdQuaternion rotation;
  SimdFloat4 scale;
};

struct alignas(16) State {
  Local locals[4];
  Float4x4 models[4];
};

SimdFloat4 f4(D3 v) {
  return simd_float4::Load(float(v.x), float(v.y), float(v.z), 0.f);
}

void RefreshChain(State* s, int from) {
  if (from == 0) {
    const Local& l = s->locals[0];
    s->models[0] = Float4x4::FromAffine(l.translation, l.rotation.xyzw, l.scale);
    from = 1;
  }
  for (int i = from; i < 4; ++i) {
    const Local& l = s->locals[i];
    s->models[i] = s->models[i - 1] *
                   Float4x4::FromAffine(l.translation, l.rotation.xyzw, l.scale);
  }
}

template <typename T>
inline void Escape(T* p) {
  asm volatile("" : : "g"(p) : "memory");
}

struct Stats {
  double median, min, max;
};

// criterion-like: 1 s warm-up (also used to estimate the cost), then
// `samples` samples of N iterations, N chosen so a sample takes ~target_ms.
template <typename F>
Stats Measure(F&& iter, int samples = 100, double target_ms = 30.0) {
  using clk = std::chrono::steady_clock;
  const auto warm_end = clk::now() + std::chrono::seconds(1);
  long long warm_iters = 0;
  auto t0 = clk::now();
  while (clk::now() < warm_end) {
    for (int i = 0; i < 1000; ++i) iter();
    warm_iters += 1000;
  }
  const double warm_ns =
      std::chrono::duration<double, std::nano>(clk::now() - t0).count();
  const double est = warm_ns / double(warm_iters);
  long long n = std::max<long long>(1, (long long)(target_ms * 1e6 / est));
  std::vector<double> per_iter(samples);
  for (int s = 0; s < samples; ++s) {
    const auto a = clk::now();
    for (long long i = 0; i < n; ++i) iter();
    const auto b = clk::now();
    per_iter[s] =
        std::chrono::duration<double, std::nano>(b - a).count() / double(n);
  }
  std::vector<double> sorted = per_iter;
  std::sort(sorted.begin(), sorted.end());
  const double med = samples % 2 ? sorted[samples / 2]
                                 : 0.5 * (sorted[samples / 2 - 1] +
                                          sorted[samples / 2]);
  return {med, sorted.front(), sorted.back()};
}

}  // namespace

int main(int argc, char** argv) {
  const int samples = argc > 1 ? std::atoi(argv[1]) : 100;
  std::printf("ozz simd: %s\n", SimdImplementationName());

  // Shoulder = world position of joint 1 (rest), in f64 like the Rust bench.
  const D3 shoulder = add(kRest[0].t, qrot(kRest[0].r, kRest[1].t));
  alignas(16) SimdFloat4 targets[64];
  for (int i = 0; i < 64; ++i) {
    const double t = i * 0.37;
    targets[i] = f4(add(shoulder, D3{0.3 + 0.1 * std::sin(t),
                                     -0.25 + 0.1 * std::cos(t),
                                     0.2 * std::sin(1.3 * t)}));
  }
  const D3 pole_point = add(shoulder, D3{0.3, -0.6, -0.5});
  // ozz's pole_vector is a model-space *direction*; only its part
  // perpendicular to start->target matters (Cross3(start_target, pole)), the
  // same as the Rust `w = P - A` projected off `u`. So pass P - A (= (0.3,
  // -0.6, -0.5), un-normalized; ozz normalizes internally).
  const SimdFloat4 pole_vector = f4(sub(pole_point, shoulder));
  // Elbow hinge in the forearm's local frame: bones run along +Y, the rest
  // bend is about local X (rot_x(-0.6)), and a positive rotation about +X
  // opens the elbow (checked: ozz's bent_side test is positive at rest).
  const SimdFloat4 mid_axis = simd_float4::x_axis();
  // The job of one arm update: target k, the chain's model matrices in `models`, the two
  // corrections written to `sc` and `mc`.
  auto make_job = [&](const SimdFloat4& target, const Float4x4* models,
                      SimdQuaternion* sc, SimdQuaternion* mc) {
    ozz::animation::IKTwoBoneJob job;
    job.target = target;
    job.pole_vector = pole_vector;
    job.mid_axis = mid_axis;
    job.weight = 1.f;
    job.soften = 1.f;
    job.twist_angle = 0.f;
    job.start_joint = &models[1];
    job.mid_joint = &models[2];
    job.end_joint = &models[3];
    job.start_joint_correction = sc;
    job.mid_joint_correction = mc;
    return job;
  };

  State rest;
  for (int i = 0; i < 4; ++i) {
    rest.locals[i].translation = f4(kRest[i].t);
    rest.locals[i].rotation.xyzw =
        simd_float4::Load(float(kRest[i].r.x), float(kRest[i].r.y),
                          float(kRest[i].r.z), float(kRest[i].r.w));
    rest.locals[i].scale = simd_float4::one();
  }
  RefreshChain(&rest, 0);

  // ---- correctness sanity check: solve every target once from rest --------
  {
    State s = rest;
    double worst = 0;
    int unreached = 0;
    for (int k = 0; k < 64; ++k) {
      SimdQuaternion sc, mc;
      bool reached = false;
      ozz::animation::IKTwoBoneJob job = make_job(targets[k], s.models, &sc, &mc);
      job.reached = &reached;
      if (!job.Run()) {
        std::fprintf(stderr, "Run() failed\n");
        return 1;
      }
      s.locals[1].rotation = s.locals[1].rotation * sc;
      s.locals[2].rotation = s.locals[2].rotation * mc;
      RefreshChain(&s, 1);
      float h[4], tg[4], e[4], a[4];
      StorePtrU(s.models[3].cols[3], h);
      StorePtrU(targets[k], tg);
      StorePtrU(s.models[2].cols[3], e);
      StorePtrU(s.models[1].cols[3], a);
      const double r = std::sqrt((h[0] - tg[0]) * (h[0] - tg[0]) +
                                 (h[1] - tg[1]) * (h[1] - tg[1]) +
                                 (h[2] - tg[2]) * (h[2] - tg[2]));
      worst = std::max(worst, r);
      unreached += !reached;
      // Elbow must be on the pole's side of the shoulder->target line.
      const D3 u{tg[0] - a[0], tg[1] - a[1], tg[2] - a[2]};
      const D3 w{e[0] - a[0], e[1] - a[1], e[2] - a[2]};
      const D3 p = sub(pole_point, shoulder);
      const D3 n1 = cross(u, w), n2 = cross(u, p);
      if (n1.x * n2.x + n1.y * n2.y + n1.z * n2.z <= 0) {
        std::fprintf(stderr, "target %d: elbow not on the pole side\n", k);
        return 1;
      }
    }
    std::printf("check: 64 chained solves, max |hand-target| = %.3g m, "
                "unreached = %d\n",
                worst, unreached);
  }

  // ---- ozz/arm_update --------------------------------------------------------
  State state = rest;
  unsigned k = 0;
  auto arm_update = [&]() {
    k = (k + 1) & 63;
    SimdQuaternion start_correction, mid_correction;
    make_job(targets[k], state.models, &start_correction, &mid_correction).Run();
    state.locals[1].rotation = state.locals[1].rotation * start_correction;
    state.locals[2].rotation = state.locals[2].rotation * mid_correction;
    RefreshChain(&state, 1);
    Escape(&state);
  };

  // ---- ozz/run_only (rest-pose matrices, same targets) ----------------------
  const State fixed = rest;
  unsigned k2 = 0;
  alignas(16) SimdQuaternion out[2];
  auto run_only = [&]() {
    k2 = (k2 + 1) & 63;
    make_job(targets[k2], fixed.models, &out[0], &out[1]).Run();
    Escape(out);
  };

  const Stats a = Measure(arm_update, samples);
  std::printf("ozz/arm_update median_ns=%.2f min_ns=%.2f max_ns=%.2f\n",
              a.median, a.min, a.max);
  const Stats r = Measure(run_only, samples);
  std::printf("ozz/run_only median_ns=%.2f min_ns=%.2f max_ns=%.2f\n",
              r.median, r.min, r.max);

  // Drift check after ~1e8 chained updates (ozz's sample does not
  // renormalize the local rotations either).
  float q1[4], q2[4];
  StorePtrU(state.locals[1].rotation.xyzw, q1);
  StorePtrU(state.locals[2].rotation.xyzw, q2);
  auto n = [](const float* q) {
    return std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  };
  std::printf("drift: |q_upperarm| = %.7f, |q_forearm| = %.7f\n", n(q1), n(q2));
  return 0;
}
