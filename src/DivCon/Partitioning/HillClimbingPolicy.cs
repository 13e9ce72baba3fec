using System.Runtime.Intrinsics;

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
/// proportional shares. Each round is O(√m) (two block minima, see the search's comments); the number of rounds is
/// capped at cores · m (it ends far sooner: each round strictly lowers the ANTT).</para>
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
        // Each kept in a BlockMinimum, which finds the least by (value, index) in O(√m) vector steps and updates one
        // value in O(√m / vector width): the same choice as scanning every program (HillClimbingEquivalenceTests),
        // far cheaper per round than four binary-heap updates at the sizes decided (256 programs: 16 blocks of 16).
        // A set restores its own block's least and reads no other block, so the two programs a move changes are set one
        // after the other in any order (a heap needs each changed key restored before the next one changes).
        // NTT at c − 1, c and c + 1 are kept per program, so a move evaluates one new NTT per program it changes.
        var below = new double[m];
        var at = new double[m];
        var above = new double[m];
        var models = new NttModel[m];
        var losses = new BlockMinimum(m);
        var gains = new BlockMinimum(m);
        for (int i = 0; i < m; i++)
        {
            models[i] = new NttModel(programs[i], cores, counts[i]);
            below[i] = counts[i] >= 2 ? models[i].At(counts[i] - 1) : double.PositiveInfinity;
            at[i] = models[i].At(counts[i]);
            above[i] = models[i].At(counts[i] + 1);
            losses.Initialise(i, Loss(i));
            gains.Initialise(i, above[i] - at[i]);
        }

        losses.Build();
        gains.Build();

        // The same NTTs PredictedAntt would evaluate, summed in index order: the same value, without evaluating them again.
        double startSum = 0;
        for (int i = 0; i < m; i++)
        {
            startSum += at[i];
        }

        double startAntt = startSum / m;
        double sum = startAntt * m;
        long maxRounds = (long)cores * m;
        for (long round = 0; round < maxRounds; round++)
        {
            int d1 = losses.Smallest();
            int r1 = gains.Smallest();
            if (d1 < 0 || r1 < 0)
            {
                break; // no program can give a core (or, never with cores ≥ m, none can take one)
            }

            // The best pair is (least loss, least gain) unless both are the same program; then the better of that
            // program giving to the second-least gain and the second-least loss giving to it.
            (int from, int to) = d1 != r1
                ? (d1, r1)
                : Better(d1, gains.SmallestExcept(r1), losses.SmallestExcept(d1), r1);
            if (from < 0 || to < 0)
            {
                break;
            }

            double delta = losses[from] + gains[to];
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
            losses.Set(from, Loss(from));
            gains.Set(from, above[from] - at[from]);
            losses.Set(to, Loss(to));
            gains.Set(to, above[to] - at[to]);
            moves.Add(new HillClimbingMove(from, to, sum / m));
        }

        double finalSum = 0;
        for (int i = 0; i < m; i++)
        {
            finalSum += at[i];
        }

        return new HillClimbingPlan(start, startAntt, moves, counts, finalSum / m);

        double Loss(int i) => counts[i] >= 2 ? below[i] - at[i] : double.PositiveInfinity;

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

            double a = losses[fromA] + gains[toA], b = losses[fromB] + gains[toB];
            return a < b || (a == b && (fromA < fromB || (fromA == fromB && toA < toB))) ? (fromA, toA) : (fromB, toB);
        }
    }

    /// <summary>
    /// <see cref="Ntt"/> of one program with what does not depend on its cores computed once (S(N), or the Amdahl fit's
    /// fraction and denominator): the same operations on the same values, so bit for bit the same NTTs. A table is
    /// read through a cursor (<see cref="ScalabilityTable.SpeedupWithCursor"/>): the search asks for counts one
    /// step from the last, so finding the table segment is a step or two instead of a binary search.
    /// </summary>
    private struct NttModel
    {
        private readonly ScalabilityTable? _table;
        private readonly double _full;       // S(N) with a table
        private readonly double _serial;     // 1 − f
        private readonly double _f;
        private readonly double _denominator; // (1 − f) + f / N
        private readonly bool _one;           // N = 1: NTT 1
        private int _upper;                   // the table cursor: first measured count ≥ the last count asked for

        public NttModel(ProgramLoad program, int totalCores, int startCores)
        {
            _table = program.ScalabilityTable;
            _one = _table is null && totalCores == 1;
            if (_table is not null)
            {
                _full = _table.SpeedupAt(totalCores);
                _upper = _table.FirstAtLeast(Math.Max(1, startCores));
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
                return _full / _table.SpeedupWithCursor(cores, ref _upper);
            }

            return _one ? 1 : (_serial + (_f / cores)) / _denominator;
        }
    }

    /// <summary>
    /// The least of m values by (value, index), kept under updates of one value at a time (a square-root decomposition).
    /// Values that are +∞ or NaN are out (a program that cannot give a core): stored as +∞, which no value in can be.
    /// </summary>
    /// <remarks>
    /// The values sit in blocks of B (a power of two ≥ √m and ≥ the vector width, padded with +∞); each block's least
    /// value is kept. Invariant (required by <see cref="Smallest"/>): <c>_blockMin[b]</c> = the least of block b's
    /// values, restored by <see cref="Set"/> in the same call that changes a value. The least (value, index) is then
    /// in the first block whose least equals the overall least, at the first position there holding that value
    /// (values compare with == there, so 0 and −0 tie and the lower index wins, as with &lt;). A set is at most one vector
    /// pass over its block (none unless it raises the block's least); a query one pass over the block minima and a scan
    /// of one block.
    /// </remarks>
    private sealed class BlockMinimum
    {
        private readonly double[] _values;   // padded to _blocks · B with +∞
        private readonly double[] _blockMin; // padded to a whole number of vectors with +∞
        private readonly int _shift;         // B = 1 << _shift
        private readonly int _blocks;

        public BlockMinimum(int count)
        {
            int width = Vector256<double>.Count;
            _shift = System.Numerics.BitOperations.Log2((uint)width);
            while ((1 << (2 * _shift)) < count)
            {
                _shift++;
            }

            _blocks = (count + (1 << _shift) - 1) >> _shift;
            _values = new double[_blocks << _shift];
            _blockMin = new double[(_blocks + width - 1) / width * width];
            Array.Fill(_values, double.PositiveInfinity);
            Array.Fill(_blockMin, double.PositiveInfinity);
        }

        public double this[int i] => _values[i];

        /// <summary>Sets value <paramref name="i"/> without restoring its block's least: call <see cref="Build"/> after the last.</summary>
        public void Initialise(int i, double value) => _values[i] = In(value) ? value : double.PositiveInfinity;

        /// <summary>Restores every block's least (after <see cref="Initialise"/>).</summary>
        public void Build()
        {
            for (int b = 0; b < _blocks; b++)
            {
                _blockMin[b] = Least(_values, b << _shift, 1 << _shift);
            }
        }

        public void Set(int i, double value)
        {
            double old = _values[i];
            double v = In(value) ? value : double.PositiveInfinity;
            _values[i] = v;
            int b = i >> _shift;
            double least = _blockMin[b];
            if (v <= least)
            {
                _blockMin[b] = v; // no other value of the block is below the old least
            }
            else if (old == least)
            {
                _blockMin[b] = Least(_values, b << _shift, 1 << _shift); // the least may have been this value
            }

            // Otherwise another value of the block equals the least (the old value was above it) and none went below.
        }

        /// <summary>The index of the least value by (value, index); -1 when every value is out.</summary>
        public int Smallest()
        {
            double least = Least(_blockMin, 0, _blockMin.Length);
            if (double.IsPositiveInfinity(least))
            {
                return -1;
            }

            int b = FirstEqual(_blockMin, 0, least);
            return FirstEqual(_values, b << _shift, least);
        }

        /// <summary>The index of the least value by (value, index) other than <paramref name="except"/>'s; -1 when there is none.</summary>
        public int SmallestExcept(int except)
        {
            double saved = _values[except];
            Set(except, double.PositiveInfinity);
            int i = Smallest();
            Set(except, saved);
            return i;
        }

        private static bool In(double value) => !double.IsPositiveInfinity(value) && !double.IsNaN(value);

        // The first index from `start` holding a value == `value` (one is known to be there). == makes 0 and −0 equal.
        private static int FirstEqual(double[] values, int start, double value)
        {
            int i = start;
            if (Vector256.IsHardwareAccelerated)
            {
                ref double first = ref System.Runtime.InteropServices.MemoryMarshal.GetArrayDataReference(values);
                Vector256<double> target = Vector256.Create(value);
                while (true)
                {
                    uint equal = Vector256.Equals(Vector256.LoadUnsafe(ref first, (nuint)i), target).ExtractMostSignificantBits();
                    if (equal != 0)
                    {
                        return i + System.Numerics.BitOperations.TrailingZeroCount(equal);
                    }

                    i += Vector256<double>.Count;
                }
            }

            while (values[i] != value)
            {
                i++;
            }

            return i;
        }

        // The least of `count` values from `start` (a whole number of vectors, no NaN). MinNative is the processor's
        // minimum (vminpd): it may return either of 0 and −0, which Smallest's == treats alike.
        private static double Least(double[] values, int start, int count)
        {
            ref double first = ref System.Runtime.InteropServices.MemoryMarshal.GetArrayDataReference(values);
            if (Vector256.IsHardwareAccelerated)
            {
                Vector256<double> least = Vector256.LoadUnsafe(ref first, (nuint)start);
                for (int k = Vector256<double>.Count; k < count; k += Vector256<double>.Count)
                {
                    least = Vector256.MinNative(least, Vector256.LoadUnsafe(ref first, (nuint)(start + k)));
                }

                Vector128<double> half = Vector128.MinNative(least.GetLower(), least.GetUpper());
                return Math.Min(half.GetElement(0), half.GetElement(1));
            }

            double result = values[start];
            for (int k = 1; k < count; k++)
            {
                result = Math.Min(result, values[start + k]);
            }

            return result;
        }
    }
}
