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
/// <see cref="Decide"/> then rotates those single cores among the programs as <see cref="ScalabilityPolicy"/> does
/// (<see cref="Rotation"/>: programs that held no core in the previous allocation first, round robin, each within
/// ⌈programs / cores⌉ decisions; recorded as <see cref="AllocationReason.Rotation"/>).</para>
/// </remarks>
public sealed class HillClimbingPolicy : IPartitioningPolicy
{
    /// <summary>The name used in reports and on the command line.</summary>
    public const string PolicyName = "hill-climbing";

    /// <inheritdoc/>
    public string Name => PolicyName;

    /// <inheritdoc/>
    public Allocation Decide(PartitioningInput input)
    {
        HillClimbingPlan plan = Plan(input);
        var reasons = new AllocationReason[plan.Final.Count][];
        for (int i = 0; i < reasons.Length; i++)
        {
            // Cores up to the proportional share are ScalabilityShare; cores the search added are HillClimbing.
            int share = Math.Min(plan.Start.Base[i], plan.Final[i]);
            reasons[i] = Enumerable.Repeat(AllocationReason.ScalabilityShare, share)
                .Concat(Enumerable.Repeat(AllocationReason.HillClimbing, plan.Final[i] - share))
                .ToArray();
        }

        int[]? rotated = Rotation.Apply(input, plan.Final, _ => true);
        return rotated is null
            ? Placement.Place(input, plan.Final, reasons)
            : Placement.Place(input, rotated, Rotation.Reasons(rotated, plan.Final, reasons));
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
        ScalabilityPlan start = ScalabilityPolicy.Compute(cores, programs.Select(p => p.Scalability).ToArray());
        int m = programs.Count;
        var counts = start.Base.ToArray();
        double startAntt = PredictedAntt(programs, counts, cores);
        var moves = new List<HillClimbingMove>();
        if (m == 0 || cores < m)
        {
            return new HillClimbingPlan(start, startAntt, moves, counts, startAntt);
        }

        // loss[i]: change in Σ NTT if i gives a core (∞ when it would drop below one); gain[j]: change if j gets one.
        var loss = new double[m];
        var gain = new double[m];
        for (int i = 0; i < m; i++)
        {
            Refresh(i);
        }

        double sum = startAntt * m;
        long maxRounds = (long)cores * m;
        for (long round = 0; round < maxRounds; round++)
        {
            (int d1, int d2) = TwoSmallest(loss);
            (int r1, int r2) = TwoSmallest(gain);
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
            Refresh(from);
            Refresh(to);
            moves.Add(new HillClimbingMove(from, to, sum / m));
        }

        return new HillClimbingPlan(start, startAntt, moves, counts, PredictedAntt(programs, counts, cores));

        void Refresh(int i)
        {
            double now = PredictedNtt(programs[i], counts[i], cores);
            loss[i] = counts[i] >= 2 ? PredictedNtt(programs[i], counts[i] - 1, cores) - now : double.PositiveInfinity;
            gain[i] = PredictedNtt(programs[i], counts[i] + 1, cores) - now;
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

    /// <summary>Indices of the smallest and second-smallest finite values (ties: lower index); -1 where there is none.</summary>
    private static (int First, int Second) TwoSmallest(double[] values)
    {
        int first = -1, second = -1;
        for (int i = 0; i < values.Length; i++)
        {
            double v = values[i];
            if (double.IsPositiveInfinity(v) || double.IsNaN(v))
            {
                continue;
            }

            if (first < 0 || v < values[first])
            {
                second = first;
                first = i;
            }
            else if (second < 0 || v < values[second])
            {
                second = i;
            }
        }

        return (first, second);
    }
}
