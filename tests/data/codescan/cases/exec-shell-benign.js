const { exec } = require('child_process');
const branch = process.argv[2] || 'main';
exec('git log --oneline -5 ' + branch, (err, out) => console.log(out));
