using DivCon.Partitioning;
using DivCon.Partitioning.Estimation;

namespace DivCon.Tests.Partitioning.Estimation;

/// <summary>
/// The estimator in a closed loop with a real policy, on programs whose speedups are known (a model, not the
/// simulator): each tick the policy decides from the estimates (or the default while they are not confident), the
/// probes are honoured, and the programs report what they did on the cores they got. The decision made from the
/// estimates must predict, under the programs' true speedups, an ANTT within 3 % of the decision made from the truth.
/// </summary>
public sealed class EstimatedDecisionTests
{
    private const int Cores = 64;

    private static SyntheticProgram[] Workload(int seed) =>
    [
        new SyntheticProgram(0.001, 0, seed, speedNoise: 0.1, servedLoss: 0.05, stealIdle: 0.01), // near linear
        new SyntheticProgram(0.02, 0.005, seed + 100, speedNoise: 0.1, servedLoss: 0.05, stealIdle: 0.02),
        new SyntheticProgram(0.1, 0, seed + 200, speedNoise: 0.1, servedLoss: 0.05, stealIdle: 0.01),
        new SyntheticProgram(0.3, 0.01, seed + 300, speedNoise: 0.1, servedLoss: 0.05, stealIdle: 0.02), // poorly scalable
    ];

    public static TheoryData<string> Policies => new() { HillClimbingPolicy.PolicyName, ScalabilityPolicy.PolicyName };

    [Theory]
    [MemberData(nameof(Policies))]
    public void DecisionFromEstimates_PredictsAnttWithin3PercentOfTheTruth(string policy)
    {
        for (int seed = 1; seed <= 3; seed++)
        {
            SyntheticProgram[] programs = Workload(seed);
            int[] ids = Enumerable.Range(0, programs.Length).ToArray();
            var estimator = new OnlineScalabilityEstimator(Cores);
            for (int tick = 0; tick < 2000; tick++)
            {
                int[] counts = Decide(policy, EstimatedLoads(estimator, ids));
                var probes = new List<ScalabilityProbe>();
                foreach (int id in ids)
                {
                    if (estimator.TryGetProbe(id, out ScalabilityProbe probe))
                    {
                        probes.Add(probe);
                    }
                }

                if (probes.Count > 0)
                {
                    counts = ProbeAllocation.Apply(ids, counts, probes);
                }

                foreach (int id in ids)
                {
                    estimator.Observe(id, programs[id].Tick(counts[id], 0.1));
                }
            }

            ProgramLoad[] estimated = EstimatedLoads(estimator, ids);
            ProgramLoad[] truth = TrueLoads(programs);
            string dump = string.Join("\n", ids.Select(id => $"{estimator.GetEstimate(id)} truth {programs[id].SpeedupAt(64):F2} probed {estimator.ProbedTicks(id)}"));
            double best = HillClimbingPolicy.PredictedAntt(truth, Decide(policy, truth), Cores);
            double online = HillClimbingPolicy.PredictedAntt(truth, Decide(policy, estimated), Cores);
            double equal = HillClimbingPolicy.PredictedAntt(truth, [16, 16, 16, 16], Cores);
            Assert.True(
                online <= best * 1.03,
                $"{policy}, seed {seed}: ANTT {online:F4} from estimates, {best:F4} from the truth, {equal:F4} equal shares; "
                + $"counts {string.Join(",", Decide(policy, estimated))} vs {string.Join(",", Decide(policy, truth))}\n{dump}");
        }
    }

    private static int[] Decide(string policy, ProgramLoad[] loads) => policy == HillClimbingPolicy.PolicyName
        ? HillClimbingPolicy.Compute(Cores, loads).Final.ToArray()
        : ScalabilityPolicy.Compute(Cores, loads.Select(l => l.Scalability).ToArray()).Base.ToArray();

    private static ScalabilityChoice Choice(OnlineScalabilityEstimator estimator, int id)
        => ScalabilityChoice.Choose(null, null, estimator.GetEstimate(id), estimator.CreateTable(id), Cores);

    private static ProgramLoad[] EstimatedLoads(OnlineScalabilityEstimator estimator, int[] ids)
        => ids.Select(id => Choice(estimator, id)).Select((c, id) => new ProgramLoad(id, c.Scalability, 0, c.Table)).ToArray();

    private static ProgramLoad[] TrueLoads(SyntheticProgram[] programs)
        => programs.Select((p, id) =>
        {
            var table = new ScalabilityTable(new[] { 1, 2, 4, 8, 16, 32, 64 }.Select(c => (c, p.SpeedupAt(c))));
            return new ProgramLoad(id, p.SpeedupAt(Cores), 0, table);
        }).ToArray();
}
