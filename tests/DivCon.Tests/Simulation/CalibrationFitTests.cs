using DivCon.Metrics.Factored;
using DivCon.Simulation;

namespace DivCon.Tests.Simulation;

/// <summary>
/// The simulated factored measurement (<see cref="IsolatedSimulation"/>), the machine model from the microbenchmark and
/// the fit of a profiled model to a measurement (<see cref="ModelCalibrator"/>), and the per-phase growth law.
/// </summary>
public sealed class CalibrationFitTests
{
    private const long Work = 1_024_000_000;

    private static FactoredProgramResult Measured(string program, double ts, double t1, params (int P, double Tp, double Ip)[] points)
    {
        var parallel = new SortedDictionary<int, IReadOnlyList<ParallelRunSample>> { [1] = [new ParallelRunSample(t1, 0)] };
        foreach ((int p, double tp, double ip) in points)
        {
            parallel[p] = [new ParallelRunSample(tp, ip)];
        }

        return FactoredAnalysis.Analyze(program, new FactoredSamples([ts], [], parallel));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(8)]
    public void IsolatedSimulation_OfAPerfectlyParallelProgramOnAnIdealMachine_IsTheFactoredIdentityWithNothingLost(int p)
    {
        ProgramModel model = SimModels.Parallel("p", Work).Calibrated(1, 0, 0.9, "test");

        FactoredProgramResult result = IsolatedSimulation.Factored(model, [p], granularityCores: 8, SimulationParameters.Ideal);

        FactoredPoint point = result.Points.Single(x => x.P == p);
        Assert.Equal(Work / 1e9, result.T1, 12);
        Assert.Equal(0.9 * Work / 1e9, result.Ts, 12);      // T_s = work × T_s/T_1
        Assert.Equal(Work / 1e9 / p, point.Tp, 12);
        Assert.Equal(0, point.Ip, 12);
        Assert.Equal(0, point.Fp, 9);
        Assert.Equal(0.9 * p, point.Speedups.Actual, 9);
    }

    [Fact]
    public void IsolatedSimulation_WithContention_FpOverT1IsBetaMSquared_WhenEveryCoreIsBusy()
    {
        ProgramModel model = SimModels.Parallel("p", Work).Calibrated(1, 0.5, 1, "test");

        FactoredProgramResult result = IsolatedSimulation.Factored(model, [4], 4, SimulationParameters.Ideal with { MemoryContention = 0.8 });

        Assert.Equal(0.8 * 0.5 * 0.5, result.Points.Single(x => x.P == 4).Fp / result.T1, 6);
    }

    [Fact]
    public void Machine_BetaIsFpOverT1OfTheMicrobenchmarkAtItsLargestP()
    {
        // T_1 = 1.0, T_2 = 0.6 with 0.05 idle: F_2 = 2·0.6 − 0.05 − 1.0 = 0.15.
        MachineModel machine = ModelCalibrator.Machine(Measured("workinflation", 1.0, 1.0, (2, 0.6, 0.05)), "M = 1", "test");
        MachineModel none = ModelCalibrator.Machine(Measured("workinflation", 1.0, 1.0, (2, 0.45, 0.0)), "M = 1", "test");

        Assert.Equal(0.15, machine.MemoryContention, 12);
        Assert.Equal(0.15, machine.Measurement!.FpSeconds, 12);
        Assert.Equal(2, machine.Measurement.Cores);
        Assert.Equal(0, none.MemoryContention); // F_2 < 0: no inflation, not a negative contention
        Assert.Throws<ArgumentException>(() => ModelCalibrator.Machine(Measured("workinflation", 1.0, 1.0), "M = 1", "test"));
    }

    [Theory]
    [InlineData(1.3, 0.5, 0.95)]
    [InlineData(0.8, 1.2, 1.05)]
    public void Fit_RecoversTheWorkFactorIntensityAndBaselineOfAKnownModel(double factor, double intensity, double baseline)
    {
        // "Measure" a known model on the simulator, then fit the uncalibrated profile to that measurement.
        ProgramModel profile = SimModels.Sortlike("s", levelNs: 2_000_000, executeNs: 200_000_000, levels: 3);
        var parameters = new SimulationParameters { MemoryContention = 0.8 };
        FactoredProgramResult measured = IsolatedSimulation.Factored(profile.Calibrated(factor, intensity, baseline, "truth"), [1, 2], 2, parameters);

        CalibrationFit fit = ModelCalibrator.Fit(profile, measured, 2, parameters, "fitted");

        Assert.Null(fit.Note);
        Assert.Equal(factor, fit.Model.FittedTo!.WorkFactor, 3);
        Assert.Equal(intensity, fit.Model.MemoryIntensity, 2);
        Assert.Equal(baseline, fit.Model.BaselineRatio!.Value, 3); // T_1 has dispatch costs T_s has not
        Assert.Equal(measured.Points.Single(p => p.P == 2).Fp / measured.T1, fit.Model.FittedTo.SimulatedInflation, 3);
        Assert.Equal(measured.T1, IsolatedSimulation.Factored(fit.Model, [1], 2, parameters).T1, 4);
        Assert.Equal("fitted", fit.Model.Source);
    }

    [Fact]
    public void Fit_LeavesTheIntensityAtZero_WithAReason_WhenThereIsNothingToFit()
    {
        ProgramModel profile = SimModels.Parallel("p", Work);
        var parameters = new SimulationParameters { MemoryContention = 0.8 };
        FactoredProgramResult uninflated = IsolatedSimulation.Factored(profile, [1, 2], 2, parameters);
        FactoredProgramResult inflated = Measured("p", 1.0, 1.0, (2, 0.7, 0.0));

        CalibrationFit noInflation = ModelCalibrator.Fit(profile, uninflated, 2, parameters, "fitted");
        CalibrationFit noContention = ModelCalibrator.Fit(profile, inflated, 2, new SimulationParameters(), "fitted");
        CalibrationFit oneWorker = ModelCalibrator.Fit(profile, Measured("p", 1.0, 1.0), 2, parameters, "fitted");

        Assert.Equal(0, noInflation.Model.MemoryIntensity);
        Assert.Contains("not above", noInflation.Note, StringComparison.Ordinal);
        Assert.Equal(0, noContention.Model.MemoryIntensity);
        Assert.Contains("no memory contention", noContention.Note, StringComparison.Ordinal);
        Assert.Equal(0, oneWorker.Model.MemoryIntensity);
        Assert.Contains("one worker", oneWorker.Note, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => ModelCalibrator.Fit(profile, Measured("other", 1, 1), 2, parameters, "fitted"));
    }

    [Fact]
    public void ScaledTo_WithAPerPhaseLaw_GrowsSplitsAndMergesLinearly_AndLeavesByTheirOwnSize()
    {
        // 2^20 elements, 64 leaves; to 2^23: splits and merges × 8, leaves × 8 · log(2^23 / 64) / log(2^20 / 64) = 8 · 17 / 14.
        ProgramModel model = SimModels.Sortlike("s", levelNs: 1_000_000, executeNs: 64_000_000, levels: 6) with { SplitMergeExponent = 1 };

        ProgramModel scaled = model.ScaledTo(1 << 23);

        Assert.Equal(8 * 500_000, scaled.Levels[0].SplitNs, 6);
        Assert.Equal(8 * 500_000, scaled.Levels[5].MergeNs, 6);
        Assert.Equal(64_000_000 * 8 * 17.0 / 14, scaled.Levels[6].ExecuteNs, 3);
        Assert.Equal(1 << 23, scaled.ProblemSize);
        Assert.Equal(1, scaled.SplitMergeExponent);
    }

    [Fact]
    public void KnownGrowth_GivesTheFiveSamplesLinearSplitsAndMerges()
    {
        foreach (string name in ModelStore.DefaultNames)
        {
            Assert.Equal(1, ModelCalibrator.KnownGrowth(name)!.SplitMergeExponent);
            Assert.Equal(1, ModelStore.LoadDefault(name).SplitMergeExponent);
        }
    }
}
