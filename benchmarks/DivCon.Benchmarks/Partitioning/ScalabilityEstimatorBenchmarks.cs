using BenchmarkDotNet.Attributes;
using DivCon.Partitioning.Estimation;

namespace DivCon.Benchmarks.Partitioning;

/// <summary>
/// Cost of the online scalability estimator per repartitioning tick (issue 20: under 10 µs for 64 programs), on 64
/// cores, with data at <see cref="CoreCounts"/> core counts per program (the estimator's cost grows with them).
/// <see cref="Tick"/>: one <see cref="OnlineScalabilityEstimator.Observe"/>, <see cref="OnlineScalabilityEstimator.GetEstimate"/>
/// and <see cref="OnlineScalabilityEstimator.TryGetProbe"/> per program. <see cref="TrackerTick"/>: what the mechanisms
/// run per tick through <see cref="ScalabilityTracker"/> (the scheduler's mover and the simulator's machine): each
/// program's counters observed, then per program the choice, the probe and the estimate (the mover's order), then
/// the probes collected (the simulator's). The baseline only copies the samples, so the ratio shows what the estimation
/// adds; the mean is the absolute per-tick time.
/// Quick run: <c>dotnet run -c Release --project benchmarks/DivCon.Benchmarks -- --filter '*ScalabilityEstimatorBenchmarks*' --job Short</c>.
/// </summary>
[MemoryDiagnoser]
public class ScalabilityEstimatorBenchmarks
{
    private const int Cores = 64;
    private const int Ticks = 256;
    private OnlineScalabilityEstimator _estimator = null!;
    private ScalabilitySample[][] _samples = null!;
    private ScalabilitySample[] _copy = null!;
    private int _tick;

    private ScalabilityTracker _tracker = null!;
    private ScalabilitySample[][] _modelled = null!;
    private ProgramCounters[] _counters = null!;
    private int[] _ids = null!;
    private List<ScalabilityProbe> _probes = null!;

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

        // Tick: 256 ticks of samples per program, cycling through CoreCounts neighbouring allocations, with random idle
        // time and task counts, replayed in a loop.
        _samples = new ScalabilitySample[Ticks][];
        for (int t = 0; t < Ticks; t++)
        {
            _samples[t] = new ScalabilitySample[Programs];
            for (int p = 0; p < Programs; p++)
            {
                int cores = 1 + ((p + (t % CoreCounts)) % Cores);
                double idle = 0.1 * cores * rng.NextDouble() * 0.3;
                _samples[t][p] = new ScalabilitySample(cores, 0.1, 0.1 * cores, idle, rng.Next(10, 1000));
            }
        }

        // TrackerTick: programs of known serial fraction (1 to 19 %) and inflation (0 to 0.6 % per core), observed at
        // CoreCounts allocations 8 cores apart (as probes and repartitionings spread them), with 10 % noise on the
        // idle fraction and the tasks and up to 5 % of the core time lost, so that the estimates settle as a running
        // program's do and the choice changes only now and then (each change builds a table: the allocation shown).
        _modelled = new ScalabilitySample[Ticks][];
        for (int t = 0; t < Ticks; t++)
        {
            _modelled[t] = new ScalabilitySample[Programs];
            for (int p = 0; p < Programs; p++)
            {
                int cores = 1 + ((p + (8 * (t % CoreCounts))) % Cores);
                double serial = 0.01 + (0.18 * (p % 8) / 8), inflation = 0.002 * (p % 4);
                double core = 0.1 * cores * (1 - (0.05 * rng.NextDouble()));
                double idleFraction = Math.Min(0.95, (cores - 1) * serial / (1 + ((cores - 1) * serial)) * (0.9 + (0.2 * rng.NextDouble())));
                double busy = core * (1 - idleFraction);
                long tasks = (long)Math.Round(busy / (0.002 * (1 + (inflation * (cores - 1)))) * (0.9 + (0.2 * rng.NextDouble())));
                _modelled[t][p] = new ScalabilitySample(cores, 0.1, core, core * idleFraction, tasks);
            }
        }

        _tracker = new ScalabilityTracker(Cores);
        _counters = new ProgramCounters[Programs];
        _ids = Enumerable.Range(0, Programs).ToArray();
        _probes = new List<ScalabilityProbe>(Programs);

        // Warm both up to their steady state: every program known, with data at every one of its core counts.
        for (int t = 0; t < 4 * Ticks; t++)
        {
            Tick();
            TrackerTick();
        }
    }

    /// <summary>Copying the tick's samples: the floor any per-tick work pays.</summary>
    [Benchmark(Baseline = true)]
    public int CopySamples()
    {
        ScalabilitySample[] tick = _samples[_tick++ & (Ticks - 1)];
        tick.CopyTo(_copy, 0);
        return _copy.Length;
    }

    /// <summary>Observe, read the estimate and the probe, for every program.</summary>
    [Benchmark]
    public double Tick()
    {
        ScalabilitySample[] tick = _samples[_tick++ & (Ticks - 1)];
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

    /// <summary>The tracker's per-tick path: observe every program's counters, then choose, probe and estimate per program, then collect the probes.</summary>
    [Benchmark]
    public double TrackerTick()
    {
        ScalabilitySample[] tick = _modelled[_tick++ & (Ticks - 1)];
        for (int p = 0; p < tick.Length; p++)
        {
            ref ProgramCounters c = ref _counters[p];
            c = new ProgramCounters(c.CoreSeconds + tick[p].CoreSeconds, c.IdleSeconds + tick[p].IdleSeconds, c.TasksExecuted + tick[p].TasksExecuted);
            _tracker.Observe(p, tick[p].AssignedCores, tick[p].ElapsedSeconds, c);
        }

        double sum = 0;
        for (int p = 0; p < tick.Length; p++)
        {
            sum += _tracker.Choose(p, null, null).Scalability;
            if (_tracker.Estimator.TryGetProbe(p, out ScalabilityProbe probe))
            {
                sum += probe.Cores;
            }

            sum += _tracker.Estimator.GetEstimate(p).Confidence;
        }

        _probes.Clear();
        return sum + _tracker.CollectProbes(_ids, _probes);
    }
}
