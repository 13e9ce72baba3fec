namespace DivCon.Partitioning;

/// <summary>
/// Static scalability-based partitioning (thesis §5.3.2): each program's share of the cores is
/// proportional to its scalability (its speedup alone on the whole machine), rounded to integers by largest
/// remainder. Ignores available tasks.
/// </summary>
/// <remarks>
/// <para>Rounding: share_i = cores · s_i / Σs; every program gets ⌊share_i⌋; the k = cores − Σ⌊share_i⌋ cores left
/// go one each to the k largest remainders share_i − ⌊share_i⌋ (ties: higher scalability, then lower index).
/// Example (§5.3.2): 23, 13, 12 on 64 cores → shares 30.67, 17.33, 16 → 31, 17, 16.</para>
/// <para>At least one core each while cores ≥ programs: a program rounded down to zero takes one core from the
/// program with the highest score a_j / share_j among those holding two or more (ties: lower scalability, then
/// higher index, the mirror of the receiving order); zero-core programs are served in order of higher scalability,
/// then lower index.</para>
/// <para>Fewer cores than programs: no program gets a second core while another has none. The cores go one each to
/// the programs with the highest scalability (ties: lower index); the others get zero cores until a later decision
/// (for example after a program leaves) gives them some. This is what the lowest-score rule gives when started
/// from zero cores everywhere. The <see cref="Repartitioner"/> then rotates the cores (<see cref="Rotation"/>): when a
/// previous allocation is given, programs that held no core in it come first, round robin in that same order, so over
/// successive decisions every program gets a core within ⌈programs / cores⌉ decisions; such cores are recorded as
/// <see cref="AllocationReason.Rotation"/>. With cores ≥ programs rotation never applies.</para>
/// <para>Cost: O(m) expected for m programs (a quickselect picks the remainder receivers), plus O(z log m) when z
/// programs need the at-least-one transfer.</para>
/// </remarks>
public sealed class ScalabilityPolicy : IPartitioningPolicy
{
    /// <summary>The name used in reports and on the command line.</summary>
    public const string PolicyName = "scalability";

    /// <inheritdoc/>
    public string Name => PolicyName;

    /// <inheritdoc/>
    /// <remarks>
    /// Postconditions, asserted before returning: one share per program summing to the cores; at least one core each
    /// while cores suffice (at most one otherwise); each program within its cap ⌊share_i⌋ + 1.
    /// </remarks>
    public Shares Decide(PartitioningInput input)
    {
        ScalabilityPlan plan = Plan(input);
        Postconditions.OneEachWhileCoresSuffice(input, plan.Base, PolicyName);
        Postconditions.WithinCaps(plan.Base, Caps(plan), PolicyName, "⌊share⌋ + 1");
        return Shares.FromCounts(input, plan.Base, reason: AllocationReason.ScalabilityShare).Checked(input, PolicyName);
    }

    /// <summary>Each program's cap: ⌊share_i⌋ + 1 (largest remainder adds at most one core; transfers only take away or give a first core).</summary>
    internal static int[] Caps(ScalabilityPlan plan)
    {
        var caps = new int[plan.Base.Count];
        for (int i = 0; i < caps.Length; i++)
        {
            caps[i] = plan.Floors[i] + 1;
        }

        return caps;
    }

    /// <summary>The base allocation for <paramref name="input"/> with its intermediate steps.</summary>
    /// <exception cref="ArgumentException">The input is invalid (see <see cref="PartitioningValidation"/>).</exception>
    public ScalabilityPlan Plan(PartitioningInput input)
    {
        PartitioningValidation.ThrowIfInvalid(input);
        return Compute(input.Cores, input.Programs.Select(p => p.Scalability).ToArray());
    }

    /// <summary>
    /// The pure function behind the policy: divides <paramref name="cores"/> among programs with the given
    /// scalabilities (index = program index).
    /// </summary>
    /// <param name="cores">Positive.</param>
    /// <param name="scalabilities">Each positive and finite; may be empty.</param>
    public static ScalabilityPlan Compute(int cores, IReadOnlyList<double> scalabilities)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(cores);
        ArgumentNullException.ThrowIfNull(scalabilities);
        int m = scalabilities.Count;
        var s = new double[m];
        for (int i = 0; i < m; i++)
        {
            s[i] = scalabilities[i];
            if (!(s[i] > 0) || double.IsInfinity(s[i]))
            {
                throw new ArgumentOutOfRangeException(
                    nameof(scalabilities), s[i], $"Scalability {i} must be a positive finite number.");
            }
        }

        double[] shares = ProportionalShares(cores, s);
        var floors = new int[m];
        var baseCounts = new int[m];
        var receivers = new List<int>();
        var transfers = new List<CoreTransfer>();
        if (m == 0)
        {
            return new ScalabilityPlan(cores, shares, floors, receivers, transfers, baseCounts);
        }

        var order = Enumerable.Range(0, m).ToArray();
        if (cores < m)
        {
            // One core each to the `cores` most scalable programs (ties: lower index).
            TopSelection.SelectFirst(order, cores, (a, b) => ProgramPriority.Compare(0, s[a], a, 0, s[b], b));
            for (int i = 0; i < cores; i++)
            {
                baseCounts[order[i]] = 1;
                receivers.Add(order[i]);
            }

            receivers.Sort();
            return new ScalabilityPlan(cores, shares, floors, receivers, transfers, baseCounts);
        }

        var remainders = new double[m];
        long sum = 0;
        for (int i = 0; i < m; i++)
        {
            // A share that is an integer in exact arithmetic may come out a hair below it: snap before the floor.
            // Remainders are rounded to 9 decimals so that decimal ties are exact ties (see ProgramPriority).
            floors[i] = (int)Math.Min(Math.Floor(shares[i] + 1e-9), cores);
            remainders[i] = Math.Max(0, Math.Round(shares[i] - floors[i], 9));
            baseCounts[i] = floors[i];
            sum += floors[i];
        }

        // Σshare_i = cores up to rounding, so 0 ≤ left < m; the loop only guards against rounding pushing it to m.
        int left = (int)(cores - sum);
        while (left > 0)
        {
            int k = Math.Min(left, m);

            // Largest remainder first: negate it so the shared "lower key first" order applies.
            TopSelection.SelectFirst(order, k, (a, b) => ProgramPriority.Compare(-remainders[a], s[a], a, -remainders[b], s[b], b));
            for (int i = 0; i < k; i++)
            {
                baseCounts[order[i]]++;
                receivers.Add(order[i]);
            }

            left -= k;
        }

        receivers.Sort();
        EnsureOneEach(baseCounts, s, transfers);
        return new ScalabilityPlan(cores, shares, floors, receivers, transfers, baseCounts);
    }

    /// <summary>share_i = cores · s_i / Σs, with Σs summed in ascending order so it does not depend on program order.</summary>
    internal static double[] ProportionalShares(int cores, double[] s)
    {
        var sorted = (double[])s.Clone();
        Array.Sort(sorted);
        double total = 0;
        foreach (double x in sorted)
        {
            total += x;
        }

        var shares = new double[s.Length];
        for (int i = 0; i < s.Length; i++)
        {
            shares[i] = cores * s[i] / total;
        }

        return shares;
    }

    private static void EnsureOneEach(int[] counts, double[] s, List<CoreTransfer> transfers)
    {
        int m = counts.Length;
        if (Array.IndexOf(counts, 0) < 0)
        {
            return; // the common case: every program has a core
        }

        var zeros = Enumerable.Range(0, m).Where(i => counts[i] == 0).ToList();

        zeros.Sort((a, b) => ProgramPriority.Compare(0, s[a], a, 0, s[b], b));

        // Donors come highest score first, then lower scalability, then higher index: the mirror of the receiving
        // order. ProgramHeap serves the lowest key, then the highest scalability, then the lowest index, so feed it
        // negated keys and scalabilities and index it by (m - 1 - i) to flip the last tie-break.
        var flippedKeys = new double[m];
        var flippedS = new double[m];
        for (int i = 0; i < m; i++)
        {
            flippedKeys[m - 1 - i] = -ProgramPriority.Key(counts[i], s[i]);
            flippedS[m - 1 - i] = -s[i];
        }

        var donors = new ProgramHeap(flippedKeys, flippedS, Enumerable.Range(0, m).Where(i => counts[i] >= 2).Select(i => m - 1 - i));
        foreach (int z in zeros)
        {
            int donor = m - 1 - donors.Pop();
            counts[donor]--;
            counts[z] = 1;
            transfers.Add(new CoreTransfer(donor, z));
            if (counts[donor] >= 2)
            {
                flippedKeys[m - 1 - donor] = -ProgramPriority.Key(counts[donor], s[donor]);
                donors.Push(m - 1 - donor);
            }
        }
    }
}
