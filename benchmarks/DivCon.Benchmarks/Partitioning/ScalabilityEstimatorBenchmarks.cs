using BenchmarkDotNet.Attributes;
using DivCon.Partitioning.Estimation;

namespace DivCon.Benchmarks.Partitioning;

/// <summary>
/// Cost of the online scalability estimator per repartitioning tick (issue 20: under 10 µs for 64 programs): one
/// <see cref="OnlineScalabilityEstimator.Observe"/>, one <see cref="OnlineScalabilityEstimator.GetEstimate"/> and one
/// <see cref="OnlineScalabilityEstimator.TryGetProbe"/> per program, on 64 cores. Each program has data at
/// <see cref="CoreCounts"/> core counts (the estimator's cost grows with them). The baseline only copies the samples,
/// so the ratio shows what the estimation adds; the mean is the absolute per-tick time.
/// Quick run: <c>dotnet run -c Release --project benchmarks/DivCon.Benchmarks -- --filter '*ScalabilityEstimatorBenchmarks*' --job Short</c>.
/// </summary>
[MemoryDiagnoser]
public class ScalabilityEstimatorBenchmarks
{
    private const int Cores = 64;
    private OnlineScalabilityEstimator _estimator = null!;
    private ScalabilitySample[][] _samples = null!;
    private ScalabilitySample[] _copy = null!;
    private int _tick;

    /// <summary>Programs observed per tick.</summary>
    [Params(64)]
    public int Programs { get; set; }

    /// <summary>Distinct core counts each program has data at.</summary>
    [Params(2, 8)]
    public int CoreCounts { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var rng = new Random(64);
        _estimator = new OnlineScalabilityEstimator(Cores);
        _copy = new ScalabilitySample[Programs];
        // 256 ticks of samples per program, cycling through CoreCounts allocations, replayed in a loop.
        _samples = new ScalabilitySample[256][];
        for (int t = 0; t < _samples.Length; t++)
        {
            _samples[t] = new ScalabilitySample[Programs];
            for (int p = 0; p < Programs; p++)
            {
                int cores = 1 + ((p + (t % CoreCounts)) % Cores);
                double idle = 0.1 * cores * rng.NextDouble() * 0.3;
                _samples[t][p] = new ScalabilitySample(cores, 0.1, 0.1 * cores, idle, rng.Next(10, 1000));
            }
        }

        for (int t = 0; t < _samples.Length; t++)
        {
            Tick();
        }
    }

    /// <summary>Copying the tick's samples: the floor any per-tick work pays.</summary>
    [Benchmark(Baseline = true)]
    public int CopySamples()
    {
        ScalabilitySample[] tick = _samples[_tick++ & 255];
        tick.CopyTo(_copy, 0);
        return _copy.Length;
    }

    /// <summary>Observe, read the estimate and the probe, for every program.</summary>
    [Benchmark]
    public double Tick()
    {
        ScalabilitySample[] tick = _samples[_tick++ & 255];
        double sum = 0;
        for (int p = 0; p < tick.Length; p++)
        {
            _estimator.Observe(p, tick[p]);
            sum += _estimator.GetEstimate(p).Scalability;
            if (_estimator.TryGetProbe(p, out ScalabilityProbe probe))
            {
                sum += probe.Cores;
            }
        }

        return sum;
    }
}
