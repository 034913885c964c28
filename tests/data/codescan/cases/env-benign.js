const { spawn } = require('child_process');
const child = spawn('npm', ['test'], { env: { ...process.env, CI: '1' } });
console.log(process.env.HOME);
