namespace DivCon.Partitioning.Estimation;

/// <summary>
/// Honours <see cref="ScalabilityProbe"/>s on a policy's core counts: a pure function the mechanism applies after the
/// policy decided and before placement, so no policy needs to know about probing.
/// </summary>
public static class ProbeAllocation
{
    /// <summary>
    /// Returns new per-program counts in which each probed program holds its requested cores as far as the others
    /// allow. Probes are taken in order; a program probed twice keeps its first probe. Cores for a probe going up are
    /// taken one at a time from the unprobed program holding the most (ties: the higher index), never below
    /// <paramref name="minimumCores"/>;
    /// cores freed by a probe going down go one at a time to the unprobed program holding the fewest (ties: the lower
    /// index), and stay with the probed program when every program is probed. The total never changes.
    /// </summary>
    /// <param name="programIds">Program id per index, as in <see cref="PartitioningInput.Programs"/>.</param>
    /// <param name="counts">The policy's cores per program index.</param>
    /// <param name="probes">The requests; ids not in <paramref name="programIds"/> are ignored.</param>
    /// <param name="minimumCores">
    /// The fewest cores a donor keeps: 1 (the default) keeps every program running; 0 lets a probe take a program's
    /// only core for the probe's ticks, which is how a machine with no more cores than programs can see any program
    /// on two cores (a policy that rotates cores among more programs than cores does the same at every tick).
    /// </param>
    /// <exception cref="ArgumentException">The lists disagree in length or a count is negative.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="minimumCores"/> is not 0 or 1.</exception>
    public static int[] Apply(IReadOnlyList<int> programIds, IReadOnlyList<int> counts, IReadOnlyList<ScalabilityProbe> probes, int minimumCores = 1)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(minimumCores);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(minimumCores, 1);
        ArgumentNullException.ThrowIfNull(programIds);
        ArgumentNullException.ThrowIfNull(counts);
        ArgumentNullException.ThrowIfNull(probes);
        if (programIds.Count != counts.Count)
        {
            throw new ArgumentException($"There are {programIds.Count} program ids but {counts.Count} counts.", nameof(counts));
        }

        int[] result = counts.ToArray();
        if (result.Any(c => c < 0))
        {
            throw new ArgumentException("Core counts must not be negative.", nameof(counts));
        }

        var probed = new bool[result.Length];
        foreach (ScalabilityProbe probe in probes)
        {
            int i = IndexOf(programIds, probe.ProgramId);
            if (i < 0 || probed[i])
            {
                continue;
            }

            probed[i] = true;
            while (result[i] < probe.Cores)
            {
                int donor = -1;
                for (int j = 0; j < result.Length; j++)
                {
                    if (!probed[j] && result[j] > minimumCores && (donor < 0 || result[j] >= result[donor]))
                    {
                        donor = j;
                    }
                }

                if (donor < 0)
                {
                    break;
                }

                result[donor]--;
                result[i]++;
            }

            while (result[i] > Math.Max(probe.Cores, 0))
            {
                int receiver = -1;
                for (int j = 0; j < result.Length; j++)
                {
                    if (!probed[j] && (receiver < 0 || result[j] < result[receiver]))
                    {
                        receiver = j;
                    }
                }

                if (receiver < 0)
                {
                    break;
                }

                result[receiver]++;
                result[i]--;
            }
        }

        return result;
    }

    private static int IndexOf(IReadOnlyList<int> ids, int id)
    {
        for (int i = 0; i < ids.Count; i++)
        {
            if (ids[i] == id)
            {
                return i;
            }
        }

        return -1;
    }
}
