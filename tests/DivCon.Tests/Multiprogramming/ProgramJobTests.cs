using DivCon.Multiprogramming;
using DivCon.Scheduling;

namespace DivCon.Tests.Multiprogramming;

/// <summary>
/// Programs that run one job and leave (<see cref="MultiProgramScheduler.RunProgramAsync{TResult}"/>), removal that does
/// not block (<see cref="MultiProgramScheduler.RemoveProgramAsync"/>), and a disposable <see cref="ProgramHandle"/>:
/// results and faults propagate, the program is gone when the task completes, nothing hangs. Every wait is bounded.
/// </summary>
public sealed class ProgramJobTests : IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    private readonly MultiProgramScheduler _mps = new(new MultiProgramSchedulerOptions
    {
        Processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray(),
        BestEffortPinning = true,
        RepartitionInterval = TimeSpan.FromMilliseconds(10),
    });

    public void Dispose() => Assert.True(Task.Run(_mps.Dispose).Wait(TimeSpan.FromSeconds(30)), "Dispose did not return within 30 s.");

    [Fact]
    public void A_job_returns_its_result_computed_on_the_program_and_the_program_is_gone_afterwards()
    {
        ProgramHandle? seen = null;
        Task<long> job = _mps.RunProgramAsync("sum", async token =>
        {
            seen = _mps.Programs.Single(p => ReferenceEquals(p.Scheduler, TaskScheduler.Current));
            long total = 0;
            Parallel.For(0, 10_000, new ParallelOptions { CancellationToken = token }, () => 0L, (i, _, local) => local + i, local => Interlocked.Add(ref total, local));
            await Task.Delay(1, token);
            Assert.Same(seen.Scheduler, TaskScheduler.Current); // the continuation came back to the program
            return total;
        });

        Assert.Equal(49_995_000L, Wait(job));
        Assert.NotNull(seen);
        Assert.True(seen.IsRemoved);
        Assert.DoesNotContain(seen, _mps.Programs);
    }

    [Fact]
    public void A_job_without_a_result_completes_after_its_program_is_removed()
    {
        int ran = 0;
        Task job = _mps.RunProgramAsync("plain", async token =>
        {
            await Task.Yield();
            Interlocked.Increment(ref ran);
        });
        Wait(job);
        Assert.Equal(1, ran);
        Assert.Empty(_mps.Programs);
    }

    [Fact]
    public void A_faulted_job_faults_its_task_with_the_exception_and_its_program_is_removed()
    {
        Task<int> job = _mps.RunProgramAsync<int>("faulty", async _ =>
        {
            await Task.Yield();
            throw new FormatException("bad input");
        });
        Assert.True(((Task)job).ContinueWith(_ => { }, TaskScheduler.Default).Wait(Timeout), "The faulted job did not complete.");
        Assert.True(job.IsFaulted);
        Assert.IsType<FormatException>(job.Exception!.InnerException);
        Assert.Empty(_mps.Programs);
    }

    [Fact]
    public void A_job_canceled_by_the_callers_token_ends_canceled_and_its_program_is_removed()
    {
        using var cancel = new CancellationTokenSource();
        Task<int> job = _mps.RunProgramAsync<int>("endless", async token =>
        {
            while (true)
            {
                await Task.Delay(1, token);
            }
        }, cancellationToken: cancel.Token);
        cancel.CancelAfter(20);
        Assert.True(((Task)job).ContinueWith(_ => { }, TaskScheduler.Default).Wait(Timeout), "The canceled job did not complete.");
        Assert.True(job.IsCanceled);
        Assert.Empty(_mps.Programs);
    }

    [Fact]
    public void Work_a_successful_job_left_queued_still_runs_before_the_program_leaves()
    {
        int leftOver = 0;
        using var release = new ManualResetEventSlim(false);
        Task job = _mps.RunProgramAsync("fire-and-forget", _ =>
        {
            for (int i = 0; i < 20; i++)
            {
                Task.Factory.StartNew(() =>
                {
                    release.Wait(Timeout);
                    Interlocked.Increment(ref leftOver);
                });
            }

            release.Set();
            return Task.CompletedTask;
        });
        Wait(job);
        Assert.Equal(20, Volatile.Read(ref leftOver));
    }

    [Fact]
    public void Many_jobs_arriving_at_once_all_complete_and_leave()
    {
        Task<int>[] jobs = Enumerable.Range(0, 40).Select(i => _mps.RunProgramAsync($"job {i}", async token =>
        {
            int sum = 0;
            await Parallel.ForEachAsync(Enumerable.Range(0, 20), token, (k, _) =>
            {
                Interlocked.Add(ref sum, k);
                return ValueTask.CompletedTask;
            });
            return sum + i;
        })).ToArray();
        Assert.True(Task.WhenAll(jobs).Wait(Timeout), "Not every job completed.");
        Assert.Equal(Enumerable.Range(0, 40).Select(i => 190 + i), jobs.Select(j => j.Result));
        Assert.Empty(_mps.Programs);
    }

    [Fact]
    public void Disposing_the_scheduler_while_a_job_awaits_lets_the_job_finish_late_without_a_hang()
    {
        // Dispose waits for tasks queued or running, not for an await: the job's continuation comes back after the
        // program was removed, runs late on the thread pool, and the job's task still completes with its result.
        using var started = new ManualResetEventSlim(false);
        var resume = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        ProgramHandle? program = null;
        Task<int> job = _mps.RunProgramAsync("outlived", async _ =>
        {
            program = _mps.Programs.Single(p => ReferenceEquals(p.Scheduler, TaskScheduler.Current));
            started.Set();
            await resume.Task;
            return 1;
        });
        Assert.True(started.Wait(Timeout), "The job did not start.");
        Assert.True(Task.Run(_mps.Dispose).Wait(Timeout), "Dispose did not return.");
        resume.SetResult();
        Assert.Equal(1, Wait(job));
        Assert.True(program!.IsRemoved);
        Assert.True(program.LateTasks >= 1, "The continuation should have run late (counted in LateTasks).");
    }

    [Fact]
    public void RunProgramAsync_on_a_disposed_scheduler_throws_at_the_call()
    {
        Assert.True(Task.Run(_mps.Dispose).Wait(Timeout));
        Assert.Throws<ObjectDisposedException>(() => { _ = _mps.RunProgramAsync("late", _ => Task.FromResult(1)); });
        Assert.Throws<ArgumentNullException>(() => { _ = _mps.RunProgramAsync("null", (Func<CancellationToken, Task<int>>)null!); });
    }

    [Fact]
    public void RemoveProgramAsync_from_one_of_the_programs_own_tasks_completes_where_RemoveProgram_is_rejected()
    {
        ProgramHandle program = _mps.AddProgram("self-removing");
        Task removal = program.Run(() =>
        {
            Assert.Throws<InvalidOperationException>(() => _mps.RemoveProgram(program));
            return _mps.RemoveProgramAsync(program);
        });
        Wait(removal); // Run unwraps: this is the removal's task
        Assert.True(program.IsRemoved);
        Assert.Throws<InvalidOperationException>(() => { _ = _mps.RemoveProgramAsync(program); });
        Assert.Throws<ObjectDisposedException>(() => { _ = program.Run(() => { }); });
    }

    [Fact]
    public void A_disposed_handle_removes_its_program_once()
    {
        ProgramHandle program;
        using (program = _mps.AddProgram("scoped"))
        {
            Assert.Equal(42, Wait(program.Run(() => 42)));
        }

        Assert.True(program.IsRemoved);
        program.Dispose(); // a second time does nothing
        Assert.Empty(_mps.Programs);
    }

    [Fact]
    public async Task An_async_disposed_handle_removes_its_program()
    {
        ProgramHandle program = _mps.AddProgram("async scoped");
        await using (program)
        {
            await program.Run(async () => await Task.Yield()).WaitAsync(Timeout);
        }

        Assert.True(program.IsRemoved);
        await program.DisposeAsync().AsTask().WaitAsync(Timeout);
    }

    [Fact]
    public void Disposing_a_handle_inside_its_own_task_starts_the_removal_without_waiting_there()
    {
        ProgramHandle program = _mps.AddProgram("disposes itself");
        Wait(program.Run(program.Dispose));
        DivCon.Tests.Scheduling.Wait.Until(() => program.IsRemoved, "the program's removal finished");
    }

    private static T Wait<T>(Task<T> task)
    {
        Assert.True(task.Wait(Timeout), $"The task did not finish within {Timeout.TotalSeconds} s.");
        return task.Result;
    }

    private static void Wait(Task task)
    {
        Assert.True(task.Wait(Timeout), $"The task did not finish within {Timeout.TotalSeconds} s.");
        task.GetAwaiter().GetResult();
    }
}
