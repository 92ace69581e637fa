// FlyBot for OpenCode: every bash call, file edit (edit, write, apply_patch) and file read (read, grep, glob, list)
// waits for FlyBot's answer (written by `flybot hook install opencode`). Calls at or below the ceiling run at once; one above it becomes an approval
// card and runs only once an owner approves it. Anything but an explicit "allow" (a denial, no decision, FlyBot unreachable, this helper failing or
// outliving its deadline) stops the call, and the model reads why.
import { spawn } from "node:child_process"

const FLYBOT = __FLYBOT_COMMAND__
const DEADLINE_MS = __FLYBOT_DEADLINE_MS__
const ASKED = ["bash", "edit", "write", "apply_patch", "read", "grep", "glob", "list"]

function ask(call) {
  return new Promise((resolve) => {
    let out = ""
    let err = ""
    let done = false
    const finish = (answer) => {
      if (!done) {
        done = true
        clearTimeout(timer)
        resolve(answer)
      }
    }
    let child
    try {
      child = spawn(FLYBOT[0], FLYBOT.slice(1), { cwd: call.directory, stdio: ["pipe", "pipe", "pipe"] })
    } catch (error) {
      finish({ decision: "deny", reason: `FlyBot's hook could not start (${error.message}); not run` })
      return
    }
    const timer = setTimeout(() => {
      child.kill("SIGTERM")
      finish({ decision: "deny", reason: "FlyBot's hook gave no answer in time; not run" })
    }, DEADLINE_MS)
    child.stdout.on("data", (chunk) => (out += chunk))
    child.stderr.on("data", (chunk) => (err += chunk))
    child.on("error", (error) =>
      finish({ decision: "deny", reason: `FlyBot's hook could not start (${error.message}); not run` }),
    )
    child.on("close", (code) => {
      try {
        const answer = JSON.parse(out)
        if (answer && typeof answer.reason === "string") return finish(answer)
      } catch {}
      const why = err.trim().split("\n").pop() || `exit status ${code}`
      finish({ decision: "deny", reason: `FlyBot's hook failed (${why}); not run` })
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(call))
  })
}

export const FlyBot = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    // any spelling of these tools goes to the hook, which refuses one that is not exactly the tool (fail closed)
    if (!ASKED.includes(String(input.tool).toLowerCase())) return
    const answer = await ask({
      tool: input.tool,
      sessionID: input.sessionID,
      callID: input.callID,
      directory,
      args: output.args,
    })
    if (answer.decision !== "allow") throw new Error(answer.reason)
  },
})
