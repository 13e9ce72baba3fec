using System.Diagnostics;

namespace DivCon.Partitioning.Estimation;

/// <summary>
/// One program's observations, binned by the core count it was served at, with its current estimate and probing
/// state. Single-threaded: only the estimator's caller (the repartitioning thread) touches it. Every array is
/// allocated in the constructor; <see cref="Observe"/> allocates nothing.
/// </summary>
internal sealed class ProgramObservations
{
    private readonly int _cores;
    private readonly ScalabilityEstimatorOptions _options;
    private readonly double _decay;
    private readonly double _perMaxRelativeError;
    private readonly double _growth; // 1 / _decay: the gain's growth per tick
    private readonly double _perMinTasks;

    // Forgetting without touching every bin per tick: a new tick is added with weight _gain (its square to the
    // second-order sums) and _gain grows by 1/λ per tick, which is the same as shrinking every older tick by λ.
    // Ratios (idle fraction, busy per task, effective counts, variances of ratios) do not depend on the scale;
    // absolute weights are stored / _gain. Rescaled to 1 before it can overflow.
    private double _gain = 1;

    // Index = served cores rounded (1.._cores); index 0 unused.
    private readonly Bin[] _bins;

    // Indices of bins holding data, ascending; only these are decayed and read.
    private readonly int[] _occupied;
    private int _occupiedCount;

    private int _probeLeft;
    private int _probeTarget;
    private double _probeCredit;
    private double _probeJitter;
    private ulong _random;

    public ProgramObservations(int programId, int cores, ScalabilityEstimatorOptions options, double decay, int recomputeEvery = RecomputeEvery)
    {
        Debug.Assert(recomputeEvery >= 1);
        _recomputeEvery = recomputeEvery;
        ProgramId = programId;
        _cores = cores;
        _options = options;
        _decay = decay;
        _perMaxRelativeError = 1 / options.MaxRelativeError;
        _growth = 1 / decay;
        _perMinTasks = 1 / options.MinTasksPerAllocation;
        _bins = new Bin[cores + 1];
        _occupied = new int[cores];
        Estimate = Empty;
        _random = 0x9E3779B97F4A7C15UL ^ (ulong)(uint)programId;
    }

    public int ProgramId { get; }

    /// <summary>Whether the estimator forgot the program (a holder of this object must look it up again).</summary>
    public bool Removed { get; set; }

    public ScalabilityEstimate Estimate { get; private set; }

    /// <summary>Ticks observed with the program served (the probing budget's base).</summary>
    public long Ticks { get; private set; }

    /// <summary>Observed ticks that had been requested as probe ticks.</summary>
    public long ProbedTicks { get; private set; }

    // The inflation fit's origin of x (cores − 1): the first core count the program was seen at, less 1.
    private double _shift;

    // The last fit, kept for SpeedupAt.
    private double _serial;
    private double _inflation;

    private static ScalabilityEstimate Empty => new(false, 1, 1, 0, 0, 0, false, double.PositiveInfinity, 0, 0, 0);

    public bool TryGetProbe(out ScalabilityProbe probe)
    {
        probe = new ScalabilityProbe(ProgramId, _probeTarget);
        return _probeLeft > 0;
    }

    public void Observe(in ScalabilitySample sample)
    {
        if (!(sample.ElapsedSeconds > 0) || !(sample.CoreSeconds > 0))
        {
            return; // not served during the tick: nothing to learn, nothing to spend.
        }

        Ticks++;
        if (_probeLeft > 0)
        {
            // This tick is one the estimator asked to be a probe (honoured or not).
            _probeLeft--;
            _probeCredit -= 1;
            ProbedTicks++;
        }

        // Required: _probeCredit ≥ 0 after every observation, so ProbedTicks ≤ ProbeFraction · Ticks. A probe starts
        // only with at least ProbeTicks credits and gains ProbeFraction per tick while spending 1.
        _probeCredit = Math.Min(_probeCredit + _options.ProbeFraction, 2 * _options.ProbeTicks);

        Forget();
        double idle = Math.Clamp(sample.IdleSeconds, 0, sample.CoreSeconds);
        bool noDemand = sample.TasksExecuted == 0 && idle >= sample.CoreSeconds * 0.999;
        if (!noDemand)
        {
            // Grouped by the assigned cores (exact, where served cores carry noise from moves and preemption); a
            // program served without an assignment (a worker finishing its task after a move) by its served cores.
            int grouped = sample.AssignedCores > 0 ? sample.AssignedCores : (int)Math.Round(sample.ServedCores, MidpointRounding.AwayFromZero);
            int bin = Math.Clamp(grouped, 1, _cores);
            Add(bin, sample.ElapsedSeconds, sample.CoreSeconds, idle, sample.TasksExecuted);
        }

        Estimate = Compute();
        DecideProbe();
    }

    /// <summary>Estimated speedup T_1 / T_P at <paramref name="cores"/> cores (1 without an estimate).</summary>
    public double SpeedupAt(double cores)
    {
        if (!Estimate.HasEstimate)
        {
            return 1;
        }

        return Model(cores, _serial, _inflation);
    }

    private void Forget()
    {
        if (_decay >= 1)
        {
            return;
        }

        _gain *= _growth;
        if (_gain > 1e100)
        {
            double first = 1 / _gain;
            for (int i = 0; i < _occupiedCount; i++)
            {
                _bins[_occupied[i]].Scale(first, first * first, _shift);
            }

            _gain = 1;
            _stale = true; // the sums are in the old units
        }
    }

    private void Add(int index, double elapsed, double core, double idle, long tasks)
    {
        ref Bin bin = ref _bins[index];
        Withdraw(ref bin);
        if (_occupiedCount == 0)
        {
            _shift = index - 1;
        }

        if (!bin.Occupied)
        {
            bin.Occupied = true;
            // Insert keeping _occupied ascending (at most _cores entries, one per bin).
            int at = _occupiedCount;
            while (at > 0 && _occupied[at - 1] > index)
            {
                _occupied[at] = _occupied[at - 1];
                at--;
            }

            _occupied[at] = index;
            _occupiedCount++;
        }

        double busy = core - idle;
        double n = tasks;
        double g = _gain, g2 = _gain * _gain;
        bin.Weight += g;
        bin.Weight2 += g2;
        bin.Elapsed += g * elapsed;
        bin.Core += g * core;
        bin.Idle += g * idle;
        bin.Tasks += g * n;
        bin.IdleIdle += g2 * idle * idle;
        bin.IdleCore += g2 * idle * core;
        bin.CoreCore += g2 * core * core;
        bin.BusyBusy += g2 * busy * busy;
        bin.BusyTasks += g2 * busy * n;
        bin.TasksTasks += g2 * n * n;
        bin.Refresh(_shift);
        Update(index);
    }

    // The sums the estimate is computed from, over the core counts with data: all their weights (the effective ticks,
    // in gained units), the serial fraction's (weights, weight × serial fraction, squared weighted errors) over
    // the counts of two or more cores with two ticks or more, and the inflation fit's over the counts with two ticks
    // and enough tasks and busy time. Kept up to date as ticks are added (Withdraw the touched count's terms, Update
    // with its new ones) and recomputed from the bins (Recompute) every RecomputeEvery updates, when a count may
    // have decayed out of a sum (_expiry), and after a rescale.
    private double _all, _weights, _weighted, _variance;
    private Fit _fit;
    private int _points;
    private double _minX = double.PositiveInfinity, _maxX = double.NegativeInfinity;
    private int _current;
    private double _currentWeight;
    private double _expiry = double.PositiveInfinity;
    private int _updates;
    private bool _stale;

    // Incremental updates between recomputations: they bound the rounding the additions and subtractions accumulate
    // (to a few dozen operations' worth) at 1/RecomputeEvery of a recomputation per tick. (1 recomputes at every
    // tick, as the estimator once did: what the tests compare the updates with.)
    private readonly int _recomputeEvery;
    internal const int RecomputeEvery = 32;

    // A count stays in its sums while its weight is at least two ticks (Weight ≥ 2·gain) and, for the fit, its tasks
    // at least MinTasksPerAllocation (Tasks ≥ min·gain): it may leave once the gain passes Weight / 2 or Tasks / min.
    // The margin makes the bound safe against the rounding of min·gain: a recomputation then and there decides exactly.
    private const double ExpiryMargin = 1 - 1e-9;

    private bool InSerial(int k, in Bin bin) => k >= 2 && !(bin.Weight < 2 * _gain);

    private bool InFit(in Bin bin) => !(bin.Weight < 2 * _gain) && bin.Tasks >= _options.MinTasksPerAllocation * _gain && bin.Busy;

    private double Expiry(in Bin bin)
    {
        double expiry = bin.Weight * 0.5 * ExpiryMargin;
        return bin.InFit ? Math.Min(expiry, bin.Tasks * _perMinTasks * ExpiryMargin) : expiry;
    }

    // Takes the count's terms out of the sums before a tick is added to it.
    private void Withdraw(ref Bin bin)
    {
        if (bin.InSerial)
        {
            _weights -= bin.Weight;
            _weighted -= bin.WeightedSerial;
            _variance -= bin.SerialVariance;
        }

        if (bin.InFit)
        {
            _fit.Subtract(bin.Terms);
            _points--;
        }
    }

    // Puts the count's new terms into the sums after a tick was added to it (with weight _gain).
    private void Update(int k)
    {
        ref Bin bin = ref _bins[k];
        _all += _gain;
        if (bin.Weight > _currentWeight || (bin.Weight == _currentWeight && k < _current) || k == _current)
        {
            // The count seen most (the first of equals); weights only grow, so only the touched count can overtake.
            _currentWeight = bin.Weight;
            _current = k;
        }

        bool wasInFit = bin.InFit;
        Enter(k, ref bin); // the count's earlier bound in _expiry may have been the least: keeping it only recomputes sooner

        // The fit's spread: the touched count's x moved; if it held the least or the greatest, find them again.
        if (wasInFit && (bin.PreviousX <= _minX || bin.PreviousX >= _maxX))
        {
            SpreadNeedsScan();
        }
        else if (bin.InFit)
        {
            _minX = bin.X < _minX ? bin.X : _minX;
            _maxX = bin.X > _maxX ? bin.X : _maxX;
        }

        _updates++;
    }

    // Decides at the present gain which sums count k is in and puts its terms there.
    private void Enter(int k, ref Bin bin)
    {
        bin.InSerial = InSerial(k, bin);
        bin.InFit = InFit(bin);
        if (bin.InSerial)
        {
            // One core: idle time says nothing about parallelism; under two ticks: no variance.
            _weights += bin.Weight;
            _weighted += bin.WeightedSerial;
            _variance += bin.SerialVariance;
        }

        if (bin.InFit)
        {
            _fit.Add(bin.Terms);
            _points++;
        }

        if (bin.InSerial || bin.InFit)
        {
            _expiry = Math.Min(_expiry, Expiry(bin));
        }
    }

    private void SpreadNeedsScan()
    {
        _minX = double.PositiveInfinity;
        _maxX = double.NegativeInfinity;
        for (int i = 0; i < _occupiedCount; i++)
        {
            ref readonly Bin bin = ref _bins[_occupied[i]];
            if (bin.InFit)
            {
                _minX = bin.X < _minX ? bin.X : _minX; // not Math.Min: x is never NaN, and this is a plain comparison
                _maxX = bin.X > _maxX ? bin.X : _maxX;
            }
        }
    }

    // The sums from the bins, and which count is in which sum at the present gain.
    private void Recompute()
    {
        _all = _weights = _weighted = _variance = _currentWeight = 0;
        _fit = default;
        _points = _current = 0;
        _expiry = double.PositiveInfinity;
        for (int i = 0; i < _occupiedCount; i++)
        {
            int k = _occupied[i];
            ref Bin bin = ref _bins[k];
            double w = bin.Weight;
            _all += w;
            if (w > _currentWeight)
            {
                _currentWeight = w;
                _current = k;
            }

            Enter(k, ref bin);
        }

        SpreadNeedsScan();
        _updates = 0;
        _stale = false;
    }

    private ScalabilityEstimate Compute()
    {
        // One serial fraction for the program: the mean of what each informative core count implies, weighted by
        // its effective ticks (not by its estimated variance: a core count seen for a few ticks that all fell in one
        // phase of a run looks precise and is not), with the standard error of that weighted mean. The sums are in
        // the gained units the bins hold (a tick weighs _gain when added), divided by _gain once here; what a count
        // contributes is cached in its bin when a tick is added to it (Bin.Refresh), so a tick costs no pass over
        // the counts (only every RecomputeEvery ticks, or when one may have decayed out of a sum).
        if (_stale || _updates >= _recomputeEvery || _gain >= _expiry)
        {
            Recompute();
        }

        int current = _current;
        double weights = _weights, weighted = _weighted, variance = _variance;
        int points = _points;
        double minX = _minX, maxX = _maxX;
        Fit fit = _fit;
        double all = _all;

        // Inflation first: the speedups below need it.
        (bool separated, double inflation, double inflationSe) = points < 2 || maxX - minX < 0.5
            ? (false, 0, 0)
            : FitInflation(fit, _shift);
        _inflation = inflation;
        double observations = all / _gain;
        int allocations = _occupiedCount;
        if (weights < _options.MinTicks * _gain)
        {
            _serial = 0;
            return Empty with { CurrentCores = current, Observations = observations, Allocations = allocations };
        }

        double perWeight = 1 / weights;
        double s = weighted * perWeight;
        double serialSe = Math.Sqrt(variance) * perWeight;
        _serial = s;

        // Model(N, s, φ) = N / ((1 + (N − 1)s)(1 + (N − 1)φ)), written out so that its terms serve the errors too.
        double extra = _cores - 1;
        double serialTerm = 1 + (extra * s), inflationTerm = 1 + (inflation * extra);
        double perTerms = 1 / (serialTerm * inflationTerm);
        double scalability = _cores * perTerms;

        // 95 % half-widths, relative to the estimate: the serial fraction ± 2 se carried through the model to all
        // cores, (Model(N, s − 2se) − Model(N, s + 2se)) / (2·Model(N, s)), and the inflation's ± 2 se,
        // 2se·(N − 1) / (1 + (N − 1)φ).
        double idleError = double.PositiveInfinity;
        if (double.IsFinite(serialSe))
        {
            double low = 1 + (extra * Math.Max(0, s - (2 * serialSe))), high = 1 + (extra * Math.Min(1, s + (2 * serialSe)));
            idleError = serialTerm * (high - low) / (2 * low * high);
        }

        double inflationError = separated ? 2 * inflationSe * extra * serialTerm * perTerms : 0;
        double error = Math.Sqrt((idleError * idleError) + (inflationError * inflationError));
        double confidence = double.IsFinite(error) ? Math.Clamp(1 - (error * _perMaxRelativeError), 0, 1) : 0;
        if (!separated && _cores > 1)
        {
            confidence = Math.Min(confidence, _options.UnseparatedConfidenceCap);
        }

        return new ScalabilityEstimate(
            true, scalability, Model(current, s, inflation), current, s, inflation, separated, error, confidence,
            observations, allocations);
    }

    // Weighted least squares of busy time per task b_k = b_1 · (1 + φ·(max(P_k, 1) − 1)) over the core counts with
    // enough tasks, each weighted by its effective ticks (as the serial fraction is, and for the same reason), with the
    // slope's variance Σ w²(x − x̄)² var_k / (Σ w (x − x̄)²)² from each count's ratio variance. φ = slope / intercept;
    // a negative φ (faster per task on more cores: cache effects) is taken as 0. The centred sums come from the raw
    // ones (Σw(x − x̄)² = Σwx² − x̄·Σwx, and so on), with x measured from `shift` (the program's first core count,
    // less 1) so that the counts a program is seen at are near 0 and the subtraction loses nothing that matters.
    private static (bool Separated, double Inflation, double InflationSe) FitInflation(in Fit fit, double shift)
    {
        double perWeight = 1 / fit.W;
        double mx = fit.Wx * perWeight, my = fit.Wy * perWeight;
        double sxx = fit.Wxx - (mx * fit.Wx);
        double sxy = fit.Wxy - (mx * fit.Wy);
        double slopeVariance = fit.V2 - (2 * mx * fit.V1) + (mx * mx * fit.V0);
        double perSxx = 1 / sxx;
        double slope = sxy * perSxx;
        double intercept = my - (slope * (mx + shift));
        if (!(intercept > 0) || !double.IsFinite(slopeVariance))
        {
            return (false, 0, 0);
        }

        // φ is shrunk towards 0 by its signal-to-noise ratio, φ·φ² / (φ² + se²): a slope within its noise would
        // otherwise, clamped at 0, bias every noisy program towards inflation.
        double perIntercept = 1 / intercept;
        double raw = slope * perIntercept, rawSe = Math.Sqrt(Math.Max(0, slopeVariance)) * perSxx * perIntercept;
        double inflation = raw > 0 ? raw * raw * raw / ((raw * raw) + (rawSe * rawSe)) : 0;
        return (true, inflation, rawSe);
    }

    // The inflation fit's sums over the core counts in it: the weights, and Σw·x, Σw·y, Σw·x², Σw·x·y (x = max(served
    // cores, 1) − 1 − shift, y = busy time per task) and the slope variance's Σw²·se²·{1, x, x²}. One bin's terms, or
    // their sum.
    private struct Fit
    {
        public double W, Wx, Wy, Wxx, Wxy, V0, V1, V2;

        public void Subtract(in Fit other)
        {
            W -= other.W;
            Wx -= other.Wx;
            Wy -= other.Wy;
            Wxx -= other.Wxx;
            Wxy -= other.Wxy;
            V0 -= other.V0;
            V1 -= other.V1;
            V2 -= other.V2;
        }

        public void Add(in Fit other)
        {
            W += other.W;
            Wx += other.Wx;
            Wy += other.Wy;
            Wxx += other.Wxx;
            Wxy += other.Wxy;
            V0 += other.V0;
            V1 += other.V1;
            V2 += other.V2;
        }
    }

    // Amdahl with a greedy scheduler: over a run on P cores the serial part s·T_1 leaves P − 1 cores idle, so the
    // idle fraction is u = (P − 1)·s / (1 + (P − 1)·s), hence s = u / ((P − 1)(1 − u)), clamped to [0, 1].
    internal static double SerialFraction(double idleFraction, double cores)
    {
        if (cores <= 1)
        {
            return 0;
        }

        double u = Math.Clamp(idleFraction, 0, 1);
        return u >= 1 ? 1 : Math.Min(1, u / ((cores - 1) * (1 - u)));
    }

    // Factored speedup: P·T_P = T_1 + F_P + I_P. Work inflation makes the work on P cores W_P = T_1·(1 + φ·(P − 1)),
    // so F_P = φ·(P − 1)·T_1; the serial part s·W_P leaves P − 1 cores idle, so I_P = (P − 1)·s·W_P. Together
    // T_P = T_1·(1 + φ·(P − 1))·(1 + (P − 1)·s) / P and S(P) = T_1 / T_P.
    internal static double Model(double cores, double serialFraction, double inflation)
    {
        double extra = Math.Max(0, cores - 1);
        return Math.Max(cores, 1) / ((1 + (extra * serialFraction)) * (1 + (inflation * extra)));
    }

    private void DecideProbe()
    {
        // The threshold is jittered (ProbeTicks · [1, 2), from a per-program xorshift: deterministic) so probes do not
        // fall at the same phase of a program whose runs last a whole number of probe periods.
        if (_probeLeft > 0 || _options.ProbeFraction <= 0 || _probeCredit < _options.ProbeTicks * (1 + _probeJitter))
        {
            return;
        }

        ScalabilityEstimate e = Estimate;
        bool needed = !e.HasEstimate || !e.InflationSeparated || e.Confidence < _options.ProbeUntilConfidence;
        if (!needed || e.CurrentCores == 0)
        {
            return;
        }

        // Up a ladder: twice the most cores the program has been seen on (for at least half a probe), so successive
        // probes climb 2, 4, 8, … towards the whole machine and shorten the extrapolation of the idle fraction to it;
        // from the whole machine, half of it.
        int current = e.CurrentCores;
        int reference = current;
        for (int i = 0; i < _occupiedCount; i++)
        {
            int k = _occupied[i];
            if (k > reference && _bins[k].Weight >= _gain * _options.ProbeTicks / 2.0)
            {
                reference = k;
            }
        }

        // Climb only while doubling still pays (the estimate predicts at least 25 % more speedup); otherwise probe
        // again where the program has been seen, so a program that does not scale is never lent the machine.
        int target;
        if (current >= _cores)
        {
            target = Math.Max(1, _cores / 2);
        }
        else if (!e.HasEstimate || reference >= _cores || SpeedupAt(Math.Min(_cores, 2 * reference)) >= 1.25 * SpeedupAt(reference))
        {
            target = Math.Min(_cores, 2 * reference);
        }
        else
        {
            target = reference > current ? reference : Math.Min(_cores, 2 * current);
        }

        if (target == current)
        {
            return;
        }

        Debug.Assert(_probeCredit >= _options.ProbeTicks);
        _probeLeft = _options.ProbeTicks;
        _probeTarget = target;
        _random ^= _random << 13;
        _random ^= _random >> 7;
        _random ^= _random << 17;
        _probeJitter = (_random >> 11) * (1.0 / (1UL << 53));
    }

    // Sums over the ticks that landed in one core count, each tick weighted w (decayed by λ per tick); the
    // second-order sums carry w² (decayed by λ²) for the variances.
    private struct Bin
    {
        // What the per-tick estimate reads (Compute's pass over the bins) first.
        public double Weight, Tasks;

        // What the bin adds to the program's serial fraction sums (Weight·Serial and (Weight·SerialSe)²) and to the
        // inflation fit (Terms, with x = X − shift), whether it has busy time, and X = max(Cores, 1) − 1: refreshed with
        // the weight (Refresh, Scale).
        public double WeightedSerial, SerialVariance;
        public Fit Terms;
        public double X, PreviousX;
        public bool Busy;

        // Which of the program's sums the bin's terms are in (ProgramObservations.Recompute, Update).
        public bool InSerial, InFit;
        public bool Occupied;

        public double Weight2, Elapsed, Core, Idle;
        public double IdleIdle, IdleCore, CoreCore, BusyBusy, BusyTasks, TasksTasks;

        // Derived from the sums above, which they do not depend on the scale of: recomputed only when a tick is added
        // to this bin (Refresh), so the per-tick estimate reads them without a division or square root.
        public double Cores, Serial, SerialSe, BusyPerTask, BusyPerTaskSe;

        // Divisions dominate the per-tick cost: each denominator is inverted once and shared, and the n / (n − 1) of
        // the standard errors is computed once for both ratios.
        public void Refresh(double shift)
        {
            double perProduct = 1 / (Core * Elapsed); // below 1e210 in gained units (the gain is rescaled at 1e100)
            Cores = Core * Core * perProduct;
            double perCore = Elapsed * perProduct;
            double u = Math.Min(Idle * perCore, 1 - 1e-9);
            double squared = Weight * Weight;
            double correction = squared > 1.5 * Weight2 ? squared / (squared - Weight2) : double.PositiveInfinity;
            double uSe = StandardError(IdleIdle, IdleCore, CoreCore, u, perCore, correction);
            Serial = SerialFraction(u, Cores);

            // ds/du = 1 / ((P − 1)(1 − u)²) carries the idle fraction's error to the serial fraction.
            SerialSe = Cores > 1 ? uSe / ((Cores - 1) * (1 - u) * (1 - u)) : double.PositiveInfinity;
            double busy = Core - Idle;
            double perTask = Tasks > 0 ? 1 / Tasks : 0;
            BusyPerTask = busy * perTask;
            BusyPerTaskSe = Tasks > 0
                ? StandardError(BusyBusy, BusyTasks, TasksTasks, BusyPerTask, perTask, correction)
                : double.PositiveInfinity;
            PreviousX = X;

            // The inflation fit's x is the program's workers running at once, less one. A program served under one
            // core on average (a worker arriving late in the tick, or finishing its task after a move: on two cores
            // with five programs, 0.4 core per one-core tick) still ran its tasks one at a time, on one worker: x is
            // 0 there, not negative. Served cores less one would stretch the fit's x range (to 1.45 instead of 1
            // between one and two cores) and read 27 % inflation on two cores as 7 % (InflationOnRecordedTicksTests).
            X = Math.Max(Cores, 1) - 1;
            Busy = busy > 0;
            Weigh(shift);
        }

        public void Scale(double first, double second, double shift)
        {
            Weight *= first;
            Elapsed *= first;
            Core *= first;
            Idle *= first;
            Tasks *= first;
            Weight2 *= second;
            IdleIdle *= second;
            IdleCore *= second;
            CoreCore *= second;
            BusyBusy *= second;
            BusyTasks *= second;
            TasksTasks *= second;
            Weigh(shift);
        }

        private void Weigh(double shift)
        {
            double w = Weight;
            WeightedSerial = w * Serial;
            SerialVariance = w * w * SerialSe * SerialSe;
            double x = X - shift, y = BusyPerTask, v = w * w * BusyPerTaskSe * BusyPerTaskSe;
            Terms = new Fit { W = w, Wx = w * x, Wy = w * y, Wxx = w * x * x, Wxy = w * x * y, V0 = v, V1 = v * x, V2 = v * x * x };
        }

        // Standard error of a ratio of weighted sums R = Σw·a / Σw·b (the linearised ratio estimator): with per-tick
        // residuals a_t − R·b_t, var(R) ≈ Σw²(a_t − R·b_t)² / (Σw·b)² · n/(n − 1), n = (Σw)² / Σw² the effective tick
        // count; `correction` is n/(n − 1), ∞ with fewer than 1.5 effective ticks (then so is the error). The
        // second-order sums are kept in expanded form (aa, ab, bb). Ticks inside one program run are correlated, so
        // this is an approximation.
        private static double StandardError(double aa, double ab, double bb, double ratio, double perDenominator, double correction)
            => double.IsPositiveInfinity(correction)
                ? double.PositiveInfinity
                : Math.Sqrt(Math.Max(0, aa - (2 * ratio * ab) + (ratio * ratio * bb)) * (perDenominator * perDenominator) * correction);
    }
}
