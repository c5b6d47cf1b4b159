#include "WaveSettings.h"

namespace texstream::app {

void describeWaveSettings(SettingTable& t, WaveSettings& s) {
  wave::WaveParameters& p = s.params;
  t.gridSize("size", s.width, s.height, 2, 16384, "Grid size: N (N x N) or WxH").label("grid");
  t.named("scheme", p.scheme, wave::schemeNames(), "Time stepping (explicit needs c dt / h <= 0.707)");
  t.real("dt", p.dt, 0.0, 1e6, false, "Time step, > 0 (default: 0.5 h / c, i.e. CFL 0.5)")
      .slider(1e-5, 0.1, true, "%.2e")
      .unsetWhen([&s] { return s.autoDt || s.params.dt <= 0; })
      .typeName("DT");
  t.real("speed", p.speed, 0.0, 1e6, false, "Wave speed c, > 0").label("wave speed c").slider(0.05, 5.0, true, "%.3f").typeName("C");
  t.real("damping", p.damping, 0.0, 0.999, true, "Fraction of the velocity lost per step, in [0, 0.999]")
      .label("damping / step")
      .slider(0.0, 0.05, false, "%.4f")
      .typeName("D");
  t.real("tolerance", p.cg.tolerance, 0.0, 1.0, false, "CG relative residual tolerance (implicit scheme), in (0, 1]")
      .slider(1e-7, 1e-2, true, "%.1e")
      .typeName("TOL");
  t.integer("max-iterations", p.cg.maxIterations, 1, 1000000, "CG iteration cap per step (implicit scheme), >= 1")
      .label("iteration cap")
      .slider(1, 2000, true);
  t.real("height-scale", s.heightScale, 0.0, 1e4, false, "Vertical exaggeration of the drawn surface")
      .label("height scale")
      .slider(0.1, 20.0, true, "%.2f");
  t.real("ripple-radius", s.rippleRadius, 0.0, 1.0, false, "Radius of a dropped ripple, in domain widths")
      .label("ripple radius")
      .slider(0.005, 0.2, true, "%.3f");
  t.real("ripple-height", s.rippleAmplitude, -10.0, 10.0, true, "Height of a dropped ripple")
      .label("ripple height")
      .slider(-0.2, 0.2, false, "%.3f");
}

void finishWaveSettings(WaveSettings& s) { s.autoDt = !(s.params.dt > 0); }

}  // namespace texstream::app
