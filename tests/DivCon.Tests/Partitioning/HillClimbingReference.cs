using DivCon.Partitioning;

namespace DivCon.Tests.Partitioning;

/// <summary>
/// The hill-climbing search written the plain way, to check <see cref="HillClimbingPolicy.Compute"/> against: every
/// round evaluates each program's NTT afresh (<see cref="HillClimbingPolicy.PredictedNtt"/>) and scans all programs,
/// O(m) per round, with no cached values, heaps or table cursors.
/// </summary>
/// <remarks>
/// The choice, as the policy defines it: d1, d2 = the programs with the two smallest losses by (loss, index) among
/// those that can give a core (loss finite: at least two cores); r1, r2 = the two smallest gains by (gain, index).
/// When d1 ≠ r1 the move is d1 → r1; otherwise the better (smaller loss + gain, then lower from, then lower to) of
/// d1 → r2 and d2 → r1. It is accepted when loss + gain &lt; −1e-12 · Σ NTT, with Σ NTT kept as the policy keeps it
/// (start ANTT · m, then plus each accepted move's loss + gain), so the recorded ANTTs are comparable bit for bit.
/// </remarks>
internal static class HillClimbingReference
{
    public static HillClimbingPlan Compute(int cores, IReadOnlyList<ProgramLoad> programs)
    {
        int m = programs.Count;
        ScalabilityPlan start = ScalabilityPolicy.Compute(cores, programs.Select(p => p.Scalability).ToArray());
        int[] counts = [.. start.Base];
        var moves = new List<HillClimbingMove>();
        double startAntt = HillClimbingPolicy.PredictedAntt(programs, counts, cores);
        if (m == 0 || cores < m)
        {
            return new HillClimbingPlan(start, startAntt, moves, counts, startAntt);
        }

        double sum = startAntt * m;
        for (long round = 0; round < (long)cores * m; round++)
        {
            var loss = new double[m];
            var gain = new double[m];
            for (int i = 0; i < m; i++)
            {
                double at = Ntt(i, counts[i]);
                loss[i] = counts[i] >= 2 ? Ntt(i, counts[i] - 1) - at : double.PositiveInfinity;
                gain[i] = Ntt(i, counts[i] + 1) - at;
            }

            (int d1, int d2) = TwoSmallest(loss);
            (int r1, int r2) = TwoSmallest(gain);
            (int from, int to) = d1 != r1 ? (d1, r1) : Better(d1, r2, d2, r1);
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
            moves.Add(new HillClimbingMove(from, to, sum / m));

            (int, int) Better(int fromA, int toA, int fromB, int toB)
            {
                bool aOk = fromA >= 0 && toA >= 0, bOk = fromB >= 0 && toB >= 0;
                if (!aOk || !bOk)
                {
                    return aOk ? (fromA, toA) : bOk ? (fromB, toB) : (-1, -1);
                }

                double a = loss[fromA] + gain[toA], b = loss[fromB] + gain[toB];
                return a < b || (a == b && (fromA < fromB || (fromA == fromB && toA < toB))) ? (fromA, toA) : (fromB, toB);
            }
        }

        return new HillClimbingPlan(start, startAntt, moves, counts, HillClimbingPolicy.PredictedAntt(programs, counts, cores));

        double Ntt(int i, int c) => HillClimbingPolicy.PredictedNtt(programs[i], c, cores);
    }

    // The two smallest by (value, index) among values that are neither +∞ nor NaN; -1 where there is none.
    private static (int First, int Second) TwoSmallest(double[] values)
    {
        int first = -1, second = -1;
        for (int i = 0; i < values.Length; i++)
        {
            if (double.IsPositiveInfinity(values[i]) || double.IsNaN(values[i]))
            {
                continue;
            }

            // Scanning in index order, a strictly smaller value is the only way to come before a program seen earlier.
            if (first < 0 || values[i] < values[first])
            {
                second = first;
                first = i;
            }
            else if (second < 0 || values[i] < values[second])
            {
                second = i;
            }
        }

        return (first, second);
    }
}
