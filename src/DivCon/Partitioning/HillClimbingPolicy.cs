namespace DivCon.Partitioning;

/// <summary>
/// SBMP-style partitioning (Sasaki et al., thesis §3.2 and §8.2): hill climbing over each program's
/// <see cref="ScalabilityTable"/> to minimise the predicted ANTT, for programs whose speedup is not monotone.
/// Static, like <see cref="ScalabilityPolicy"/>: it ignores available tasks.
/// </summary>
/// <remarks>
/// <para><b>Model.</b> With N = the cores being divided and S_i(c) program i's speedup on c cores, the predicted
/// normalised turnaround time of program i on c cores is NTT_i(c) = S_i(N) / S_i(c) = T_i(alone on all N) / T_i(on c):
/// how much slower it runs on its partition than alone on the whole machine (the metric's definition, §2.4, with
/// co-runners assumed not to interfere beyond taking cores). NTT_i(0) = ∞. Predicted ANTT = mean of NTT_i.
/// S_i comes from the program's table (<see cref="ScalabilityTable.SpeedupAt"/>: interpolated linearly, flat beyond
/// the last point). A program without a table is modelled by Amdahl's law fitted to its one measured value
/// S_i(N) = s_i: parallel fraction f = (1 − 1/s_i) / (1 − 1/N), clamped to [0, 1], and S_i(c) = 1 / ((1 − f) + f / c),
/// so NTT_i(c) = ((1 − f) + f / c) / ((1 − f) + f / N). (A perfectly linear program, f = 1, has NTT_i(c) = N / c.)</para>
/// <para><b>Search.</b> Start from the proportional allocation (<see cref="ScalabilityPolicy.Compute"/>). Repeatedly
/// take the single move of one core from a program i to a program j (i ≠ j, i keeping at least one core) that lowers
/// the predicted ANTT most (ties broken towards lower program indices), and stop when no move lowers it by
/// more than a relative 1e-12. Only improving moves are accepted, so the result never predicts a worse ANTT than the
/// proportional shares. Each round is O(m); the number of rounds is capped at cores · m (it ends far sooner: each
/// round strictly lowers the ANTT).</para>
/// <para><b>Edges.</b> No programs: nothing to do. Fewer cores than programs: the proportional allocation is
/// returned unchanged (every program with a core holds exactly one, and the predicted ANTT is infinite either way);
/// the <see cref="Repartitioner"/> then rotates those single cores among the programs (<see cref="Rotation"/>:
/// programs that held no core in the previous allocation first, round robin, each within ⌈programs / cores⌉
/// decisions; recorded as <see cref="AllocationReason.Rotation"/>).</para>
/// </remarks>
public sealed class HillClimbingPolicy : IPartitioningPolicy
{
    /// <summary>The name used in reports and on the command line.</summary>
    public const string PolicyName = "hill-climbing";

    /// <inheritdoc/>
    public string Name => PolicyName;

    /// <inheritdoc/>
    /// <remarks>
    /// Postconditions, asserted before returning: one share per program summing to the cores, and at least one core
    /// each while cores suffice (at most one otherwise).
    /// </remarks>
    public Shares Decide(PartitioningInput input)
    {
        HillClimbingPlan plan = Plan(input);
        var reasons = new AllocationReason[plan.Final.Count][];
        for (int i = 0; i < reasons.Length; i++)
        {
            // Cores up to the proportional share are ScalabilityShare; cores the search added are HillClimbing.
            int share = Math.Min(plan.Start.Base[i], plan.Final[i]);
            reasons[i] = new AllocationReason[plan.Final[i]];
            reasons[i].AsSpan(0, share).Fill(AllocationReason.ScalabilityShare);
            reasons[i].AsSpan(share).Fill(AllocationReason.HillClimbing);
        }

        Postconditions.OneEachWhileCoresSuffice(input, plan.Final, PolicyName);
        return Shares.FromOwnedReasons(input, reasons).Checked(input, PolicyName);
    }

    /// <summary>The search for <paramref name="input"/> with every accepted move.</summary>
    /// <exception cref="ArgumentException">The input is invalid (see <see cref="PartitioningValidation"/>).</exception>
    public HillClimbingPlan Plan(PartitioningInput input)
    {
        PartitioningValidation.ThrowIfInvalid(input);
        return Compute(input.Cores, input.Programs);
    }

    /// <summary>Predicted NTT_i(c) = S_i(N) / S_i(c) of <paramref name="program"/> on <paramref name="cores"/> of <paramref name="totalCores"/> cores.</summary>
    public static double PredictedNtt(ProgramLoad program, int cores, int totalCores)
    {
        ArgumentNullException.ThrowIfNull(program);
        ArgumentOutOfRangeException.ThrowIfNegative(cores);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(totalCores);
        return Ntt(program, cores, totalCores);
    }

    // PredictedNtt without the argument checks (the search's inner loop).
    private static double Ntt(ProgramLoad program, int cores, int totalCores)
    {
        if (cores == 0)
        {
            return double.PositiveInfinity;
        }

        if (program.ScalabilityTable is null)
        {
            if (totalCores == 1)
            {
                return 1;
            }

            double f = Math.Clamp((1 - (1 / program.Scalability)) / (1 - (1.0 / totalCores)), 0, 1);
            return ((1 - f) + (f / cores)) / ((1 - f) + (f / totalCores));
        }

        return program.ScalabilityTable.SpeedupAt(totalCores) / program.ScalabilityTable.SpeedupAt(cores);
    }

    /// <summary>Predicted ANTT: the mean of <see cref="PredictedNtt"/> over the programs; 0 for no programs.</summary>
    public static double PredictedAntt(IReadOnlyList<ProgramLoad> programs, IReadOnlyList<int> counts, int totalCores)
    {
        ArgumentNullException.ThrowIfNull(programs);
        ArgumentNullException.ThrowIfNull(counts);
        if (programs.Count != counts.Count)
        {
            throw new ArgumentException($"There are {programs.Count} programs but {counts.Count} counts.", nameof(counts));
        }

        if (programs.Count == 0)
        {
            return 0;
        }

        double sum = 0;
        for (int i = 0; i < programs.Count; i++)
        {
            sum += PredictedNtt(programs[i], counts[i], totalCores);
        }

        return sum / programs.Count;
    }

    /// <summary>The pure function behind the policy.</summary>
    /// <param name="cores">Positive.</param>
    /// <param name="programs">Valid programs (positive scalabilities); tables optional.</param>
    public static HillClimbingPlan Compute(int cores, IReadOnlyList<ProgramLoad> programs)
    {
        ArgumentNullException.ThrowIfNull(programs);
        int m = programs.Count;
        var scalabilities = new double[m];
        for (int i = 0; i < m; i++)
        {
            scalabilities[i] = programs[i].Scalability;
        }

        ScalabilityPlan start = ScalabilityPolicy.Compute(cores, scalabilities);
        int[] counts = [.. start.Base];
        var moves = new List<HillClimbingMove>(m);
        if (m == 0 || cores < m)
        {
            double antt = PredictedAntt(programs, counts, cores);
            return new HillClimbingPlan(start, antt, moves, counts, antt);
        }

        // loss[i]: change in Σ NTT if i gives a core (∞ when it would drop below one); gain[j]: change if j gets one.
        // Each kept in an indexed min-heap by (value, index), so a round reads the two smallest of each in O(1) and
        // updates the two programs it changed in O(log m): the same choice as scanning every program, m times cheaper.
        // NTT at c − 1, c and c + 1 are kept per program, so a move evaluates one new NTT per program it changes.
        var below = new double[m];
        var at = new double[m];
        var above = new double[m];
        var loss = new double[m];
        var gain = new double[m];
        var models = new NttModel[m];
        for (int i = 0; i < m; i++)
        {
            models[i] = new NttModel(programs[i], cores);
            below[i] = counts[i] >= 2 ? models[i].At(counts[i] - 1) : double.PositiveInfinity;
            at[i] = models[i].At(counts[i]);
            above[i] = models[i].At(counts[i] + 1);
            Differences(i);
        }

        // The same NTTs PredictedAntt would evaluate, summed in index order: the same value, without evaluating them again.
        double startSum = 0;
        for (int i = 0; i < m; i++)
        {
            startSum += at[i];
        }

        double startAntt = startSum / m;
        var losses = new IndexedMinHeap(loss);
        var gains = new IndexedMinHeap(gain);
        double sum = startAntt * m;
        long maxRounds = (long)cores * m;
        for (long round = 0; round < maxRounds; round++)
        {
            (int d1, int d2) = losses.TwoSmallest();
            (int r1, int r2) = gains.TwoSmallest();
            (int from, int to) = d1 != r1
                ? (d1, r1)
                : Better(d1, r2, d2, r1);
            if (from < 0 || to < 0)
            {
                break;
            }

            double delta = loss[from] + gain[to];
            if (!(delta < -1e-12 * sum))
            {
                break;
            }

            counts[from]--;
            counts[to]++;
            sum += delta;
            above[from] = at[from];
            at[from] = below[from];
            below[from] = counts[from] >= 2 ? models[from].At(counts[from] - 1) : double.PositiveInfinity;
            below[to] = at[to];
            at[to] = above[to];
            above[to] = models[to].At(counts[to] + 1);
            // Required: one changed key at a time. Update restores the heap around one key; with the other program's
            // key already changed too, a sift could settle against a stale neighbour and leave a heap whose top is not
            // the least (it picked a worse move in 6 of 1500 random cases, HillClimbingEquivalenceTests).
            Differences(from);
            losses.Update(from);
            gains.Update(from);
            Differences(to);
            losses.Update(to);
            gains.Update(to);
            moves.Add(new HillClimbingMove(from, to, sum / m));
        }

        double finalSum = 0;
        for (int i = 0; i < m; i++)
        {
            finalSum += at[i];
        }

        return new HillClimbingPlan(start, startAntt, moves, counts, finalSum / m);

        void Differences(int i)
        {
            loss[i] = counts[i] >= 2 ? below[i] - at[i] : double.PositiveInfinity;
            gain[i] = above[i] - at[i];
        }

        (int From, int To) Better(int fromA, int toA, int fromB, int toB)
        {
            bool aOk = fromA >= 0 && toA >= 0;
            bool bOk = fromB >= 0 && toB >= 0;
            if (!aOk)
            {
                return bOk ? (fromB, toB) : (-1, -1);
            }

            if (!bOk)
            {
                return (fromA, toA);
            }

            double a = loss[fromA] + gain[toA], b = loss[fromB] + gain[toB];
            return a < b || (a == b && (fromA < fromB || (fromA == fromB && toA < toB))) ? (fromA, toA) : (fromB, toB);
        }
    }

    /// <summary>
    /// <see cref="Ntt"/> of one program with what does not depend on its cores computed once (S(N), or the Amdahl fit's
    /// fraction and denominator): the same operations on the same values, so bit for bit the same NTTs.
    /// </summary>
    private readonly struct NttModel
    {
        private readonly ScalabilityTable? _table;
        private readonly double _full;       // S(N) with a table
        private readonly double _serial;     // 1 − f
        private readonly double _f;
        private readonly double _denominator; // (1 − f) + f / N
        private readonly bool _one;           // N = 1: NTT 1

        public NttModel(ProgramLoad program, int totalCores)
        {
            _table = program.ScalabilityTable;
            _one = _table is null && totalCores == 1;
            if (_table is not null)
            {
                _full = _table.SpeedupAt(totalCores);
            }
            else if (!_one)
            {
                _f = Math.Clamp((1 - (1 / program.Scalability)) / (1 - (1.0 / totalCores)), 0, 1);
                _serial = 1 - _f;
                _denominator = _serial + (_f / totalCores);
            }
        }

        public double At(int cores)
        {
            if (cores == 0)
            {
                return double.PositiveInfinity;
            }

            if (_table is not null)
            {
                return _full / _table.SpeedupAt(cores);
            }

            return _one ? 1 : (_serial + (_f / cores)) / _denominator;
        }
    }

    /// <summary>
    /// A min-heap of program indices over a value array the caller owns, ordered by (value, index); infinite and NaN
    /// values are kept out (a program that cannot give a core). <see cref="Update"/> after changing one value.
    /// </summary>
    private sealed class IndexedMinHeap
    {
        private readonly double[] _values;
        private readonly int[] _heap;
        private readonly int[] _position; // index → heap position, or -1 when out
        private int _count;

        public IndexedMinHeap(double[] values)
        {
            _values = values;
            _heap = new int[values.Length];
            _position = new int[values.Length];
            Array.Fill(_position, -1);
            for (int i = 0; i < values.Length; i++)
            {
                if (In(i))
                {
                    _position[i] = _count;
                    _heap[_count++] = i;
                }
            }

            for (int k = (_count / 2) - 1; k >= 0; k--)
            {
                SiftDown(k);
            }
        }

        /// <summary>The smallest and second smallest by (value, index); -1 where there is none.</summary>
        public (int First, int Second) TwoSmallest()
        {
            if (_count == 0)
            {
                return (-1, -1);
            }

            int second = _count > 1 ? _heap[1] : -1;
            if (_count > 2 && Less(_heap[2], _heap[1]))
            {
                second = _heap[2];
            }

            return (_heap[0], second);
        }

        public void Update(int i)
        {
            int pos = _position[i];
            if (!In(i))
            {
                if (pos >= 0)
                {
                    RemoveAt(pos);
                }

                return;
            }

            if (pos < 0)
            {
                _position[i] = _count;
                _heap[_count++] = i;
                SiftUp(_count - 1);
                return;
            }

            SiftUp(pos);
            SiftDown(_position[i]);
        }

        private bool In(int i) => !double.IsPositiveInfinity(_values[i]) && !double.IsNaN(_values[i]);

        private bool Less(int a, int b) => _values[a] < _values[b] || (_values[a] == _values[b] && a < b);

        private void RemoveAt(int pos)
        {
            int removed = _heap[pos];
            _position[removed] = -1;
            int last = _heap[--_count];
            if (pos == _count)
            {
                return;
            }

            _heap[pos] = last;
            _position[last] = pos;
            SiftUp(pos);
            SiftDown(_position[last]);
        }

        private void SiftUp(int pos)
        {
            while (pos > 0)
            {
                int parent = (pos - 1) / 2;
                if (!Less(_heap[pos], _heap[parent]))
                {
                    return;
                }

                Swap(pos, parent);
                pos = parent;
            }
        }

        private void SiftDown(int pos)
        {
            while (true)
            {
                int left = (2 * pos) + 1;
                if (left >= _count)
                {
                    return;
                }

                int smallest = left + 1 < _count && Less(_heap[left + 1], _heap[left]) ? left + 1 : left;
                if (!Less(_heap[smallest], _heap[pos]))
                {
                    return;
                }

                Swap(pos, smallest);
                pos = smallest;
            }
        }

        private void Swap(int a, int b)
        {
            (_heap[a], _heap[b]) = (_heap[b], _heap[a]);
            _position[_heap[a]] = a;
            _position[_heap[b]] = b;
        }
    }
}
