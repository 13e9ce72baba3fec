using DivCon.Partitioning.Estimation;

namespace DivCon.Tests.Partitioning.Estimation;

/// <summary>
/// A program whose speedup is known by construction, run cyclically (restarted as soon as it ends) on however many
/// cores a tick gives it, reporting what a scheduler would record per tick. Each run: one serial task of s·T_1 (one
/// core busy, the others idle), then a parallel phase of <c>tasks</c> tasks with random sizes (the same every run,
/// as a D&amp;C program's tree is) summing to (1 − s)·T_1, served by all cores. Work inflation φ makes every core
/// 1 + φ·(P − 1) times slower. So T_P = T_1·(1 + φ(P − 1))·(s + (1 − s)/P), the estimator's model exactly, and the
/// noise options add what the model does not: per-tick speed changes (co-runner interference), served core time
/// lost to moves and preemption, and idle time from failed steals in the parallel phase.
/// </summary>
internal sealed class SyntheticProgram
{
    private readonly double _t1;
    private readonly double[] _taskEnds; // cumulative ends of the parallel tasks, in T_1 seconds of work
    private readonly Random _rng;
    private readonly double _speedNoise;
    private readonly double _servedLoss;
    private readonly double _stealIdle;
    private double _progress; // T_1 seconds of work done in the current run
    private int _nextTask;

    public SyntheticProgram(
        double serialFraction, double inflation, int seed, double t1Seconds = 2.0, int tasks = 400,
        double speedNoise = 0, double servedLoss = 0, double stealIdle = 0)
    {
        Serial = serialFraction;
        Inflation = inflation;
        _t1 = t1Seconds;
        _rng = new Random(seed);
        _speedNoise = speedNoise;
        _servedLoss = servedLoss;
        _stealIdle = stealIdle;
        var sizes = new double[tasks];
        for (int i = 0; i < tasks; i++)
        {
            sizes[i] = Math.Exp(_rng.NextDouble() * 3); // sizes spread over a factor of 20
        }

        double total = sizes.Sum();
        _taskEnds = new double[tasks];
        double end = serialFraction * t1Seconds;
        for (int i = 0; i < tasks; i++)
        {
            end += sizes[i] / total * (1 - serialFraction) * t1Seconds;
            _taskEnds[i] = end;
        }

        // Start at a random point of a run, as a program observed from an arbitrary tick is.
        _progress = _rng.NextDouble() * t1Seconds;
        _nextTask = Array.FindIndex(_taskEnds, e => e > _progress);
    }

    public double Serial { get; }

    public double Inflation { get; }

    /// <summary>The true speedup T_1 / T_P (noise-free; failed steals only happen with two or more cores).</summary>
    public double SpeedupAt(int cores)
    {
        double parallelRate = cores * (cores > 1 ? 1 - _stealIdle : 1);
        return 1 / ((1 + (Inflation * (cores - 1))) * (Serial + ((1 - Serial) / parallelRate)));
    }

    /// <summary>One tick of <paramref name="seconds"/> on <paramref name="cores"/> cores (0: not served).</summary>
    public ScalabilitySample Tick(int cores, double seconds)
    {
        if (cores == 0)
        {
            return new ScalabilitySample(0, seconds, 0, 0, 0);
        }

        double served = cores * seconds * (1 - (_servedLoss * _rng.NextDouble()));
        double wall = served / cores; // the time all cores were served, the same for each
        double speed = Math.Max(0.2, 1 + (_speedNoise * Normal())) / (1 + (Inflation * (cores - 1)));
        double idle = 0;
        long tasks = 0;
        double left = wall;
        while (left > 1e-15)
        {
            double serialEnd = Serial * _t1;
            if (_progress < serialEnd)
            {
                // Serial task: one core works at `speed`, cores − 1 idle.
                double t = Math.Min(left, (serialEnd - _progress) / speed);
                _progress += t * speed;
                idle += (cores - 1) * t;
                left -= t;
                if (_progress >= serialEnd - 1e-12)
                {
                    _progress = serialEnd;
                    tasks++;
                }

                continue;
            }

            // Parallel phase: every core works at `speed`, minus a small share lost to failed steals.
            double lost = cores > 1 ? _stealIdle : 0;
            double rate = cores * speed * (1 - lost);
            double t2 = Math.Min(left, (_t1 - _progress) / rate);
            _progress += t2 * rate;
            idle += cores * t2 * lost;
            left -= t2;
            while (_nextTask < _taskEnds.Length && _taskEnds[_nextTask] <= _progress + 1e-12)
            {
                _nextTask++;
                tasks++;
            }

            if (_progress >= _t1 - 1e-12)
            {
                _progress = 0; // the run ended: restart at once
                _nextTask = 0;
            }
        }

        return new ScalabilitySample(cores, seconds, served, idle, tasks);
    }

    private double Normal()
    {
        double u1 = 1 - _rng.NextDouble(), u2 = _rng.NextDouble();
        return Math.Sqrt(-2 * Math.Log(u1)) * Math.Cos(2 * Math.PI * u2);
    }
}
